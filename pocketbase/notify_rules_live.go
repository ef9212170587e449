package main

import "github.com/pocketbase/pocketbase/core"

// registerNotifyRulesBroadcast tells a user's open pages, live, that their notification choices changed
// (a conversation muted or its level set, a pause, quiet hours: pocketbase/push_rules.go stores them
// in notify_rules), so a mute set on the phone holds on the laptop at once. Nothing of the rules goes with
// the event: the page reads them again (GET /api/notify-rules).
func registerNotifyRulesBroadcast(app core.App) {
	changed := toOwner("notify-rules", "owner")
	app.OnRecordAfterCreateSuccess("notify_rules").BindFunc(changed)
	app.OnRecordAfterUpdateSuccess("notify_rules").BindFunc(changed)
}
