// The JS binding of retention: $retention in the hooks (retention.go).
package main

import (
	"time"

	"github.com/dop251/goja"
	"github.com/pocketbase/pocketbase/core"
)

// bindRetention sets the global $retention: forUser(app, userId) -> {days, per_channel, keep_pinned,
// channels: {id: days}}, the policy and the days that apply to each of the user's conversations (the
// account export says which policy applied; the rule is written once, in retention.go); and
// expiring(app, days, keepPinned), the console's count of what a shorter period deletes; and
// expiringIn(app, channelId, days), a channel admin's count for their channel.
func bindRetention(vm *goja.Runtime) {
	obj := vm.NewObject()
	_ = obj.Set("forUser", func(app core.App, userID string) (map[string]any, error) {
		answer, err := retentionFor(app, userID)
		if err != nil {
			return nil, err
		}
		return map[string]any{"days": answer.Days, "per_channel": answer.PerChannel, "keep_pinned": answer.KeepPinned, "channels": answer.Channels}, nil
	})
	// expiring(app, days, keepPinned) -> how many messages a workspace period of `days` deletes now
	_ = obj.Set("expiring", func(app core.App, days int, keepPinned bool) (int, error) {
		return expiringMessages(app, days, keepPinned, time.Now())
	})
	// expiringIn(app, channelId, days) -> how many messages a channel's own period of `days` deletes now
	_ = obj.Set("expiringIn", func(app core.App, channelID string, days int) (int, error) {
		return expiringInChannel(app, channelID, days, time.Now())
	})
	_ = vm.Set("$retention", obj)
}
