package main

import (
	"github.com/pocketbase/pocketbase/core"
)

// Litestream (docs/decisions/0012-supervision-and-replication.md) keeps a read transaction open on
// data.db so that no checkpoint discards WAL frames it has not copied yet, and it checkpoints the
// database itself. PocketBase's nightly job runs PRAGMA wal_checkpoint(TRUNCATE) on data.db, which
// would wait for that reader, holding back writers, for up to its busy timeout. This replaces the
// job: the same PRAGMA optimize, and the TRUNCATE checkpoint for auxiliary.db only (not replicated).
const pocketbaseOptimizeJob = "__pbDBOptimize__"

func registerCheckpoints(app core.App) {
	app.OnServe().BindFunc(func(se *core.ServeEvent) error {
		app.Cron().Remove(pocketbaseOptimizeJob)
		app.Cron().MustAdd("chatcryptDBOptimize", "0 0 * * *", func() {
			if _, err := app.AuxNonconcurrentDB().NewQuery("PRAGMA wal_checkpoint(TRUNCATE)").Execute(); err != nil {
				app.Logger().Warn("auxiliary DB checkpoint failed", "error", err)
			}
			if _, err := app.NonconcurrentDB().NewQuery("PRAGMA optimize").Execute(); err != nil {
				app.Logger().Warn("PRAGMA optimize failed", "error", err)
			}
		})
		return se.Next()
	})
}
