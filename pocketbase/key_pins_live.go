package main

import "github.com/pocketbase/pocketbase/core"

// registerKeyPinsBroadcast tells a user's open pages, live, that one of their devices saved their key
// pins (docs/decisions/0043-first-sights-pinned-together.md): someone's new keys accepted there, say.
// A page that did not save it reads the pins again and accepts here what was accepted there. The event
// carries the head's counter only, which PocketBase stores in the clear beside the sealed head; a page
// that saved that head, or read it since, does nothing with it.
func registerKeyPinsBroadcast(app core.App) {
	told := func(e *core.RecordEvent) error {
		relay.publish("key-pins", []string{e.Record.GetString("owner")}, map[string]int{"counter": e.Record.GetInt("counter")})
		return e.Next()
	}
	app.OnRecordAfterCreateSuccess("key_pin_heads").BindFunc(told)
	app.OnRecordAfterUpdateSuccess("key_pin_heads").BindFunc(told)
}
