package main

import "github.com/pocketbase/pocketbase/core"

// registerThreadsSeenBroadcast tells a user's open pages, live, that they saw a thread on one of their
// devices (thread_reads: the latest reply seen, per thread root), so that the Threads view of every
// other device drops it at once. Nothing of the record goes with the event: the page reads the
// Threads view again (GET /api/threads). A root deleted takes its thread_reads rows along (their
// relation cascades): the pages of those who saw the thread drop it from their Threads view too.
func registerThreadsSeenBroadcast(app core.App) {
	changed := toOwner("threads-seen", "user")
	app.OnRecordAfterCreateSuccess("thread_reads").BindFunc(changed)
	app.OnRecordAfterUpdateSuccess("thread_reads").BindFunc(changed)
	app.OnRecordAfterDeleteSuccess("thread_reads").BindFunc(changed)
}
