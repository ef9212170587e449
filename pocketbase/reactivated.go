package main

import (
	"github.com/pocketbase/dbx"
	"github.com/pocketbase/pocketbase/core"
)

// memberReactivated is what the other person's open pages of a one-to-one are told when an
// administrator reactivates the account (docs/decisions/0056-deactivation.md): the conversation said
// "<name> was deactivated by an administrator" and had no message box until a reload.
type memberReactivated struct {
	User string `json:"user"`
	Name string `json:"name"`
}

// registerReactivated publishes "member-reactivated" to the people who have a one-to-one with an
// account whose profile stops being deactivated (its memberships ended with the deactivation, so the
// one-to-ones' keys find them). The event carries the account's id and username only.
func registerReactivated(app core.App) {
	app.OnRecordAfterUpdateSuccess("profiles").BindFunc(func(e *core.RecordEvent) error {
		if relay.listening() && e.Record.Original().GetBool("deactivated") && !e.Record.GetBool("deactivated") {
			if partners := oneToOnePartners(e.App, e.Record.Id); len(partners) > 0 {
				relay.publish("member-reactivated", partners, memberReactivated{User: e.Record.Id, Name: e.Record.GetString("username")})
			}
		}
		return e.Next()
	})
}

// oneToOnes: the one-to-ones whose key ("<a>:<b>") names the user.
func oneToOnes(db dbx.Builder, userID string) ([]string, error) {
	var ids []string
	err := db.Select("id").From("channels").
		Where(dbx.Or(dbx.Like("direct_key", userID+":").Match(false, true), dbx.Like("direct_key", ":"+userID).Match(true, false))).
		Column(&ids)
	return ids, err
}

// oneToOnePartners: the members of the one-to-ones whose key names the user (their other person).
func oneToOnePartners(app core.App, userID string) []string {
	ids, err := oneToOnes(app.DB(), userID)
	if err != nil {
		return nil
	}
	seen := map[string]bool{}
	var partners []string
	for _, id := range ids {
		found, err := channelMembers(app, id)
		if err != nil {
			continue
		}
		for _, member := range found {
			if member != userID && !seen[member] {
				seen[member] = true
				partners = append(partners, member)
			}
		}
	}
	return partners
}
