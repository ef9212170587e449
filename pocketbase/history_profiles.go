package main

import "github.com/pocketbase/dbx"

// historyMaxProfiles is how many of a page's senders it names (the web server asked for as many).
const historyMaxProfiles = 100

// historyProfile is a sender as the web server's /api/profiles names one: its public profile, or,
// for a deleted account, the keys it left (deleted_accounts) and no name.
type historyProfile struct {
	ID            string `db:"id" json:"id"`
	Username      string `db:"username" json:"username,omitempty"`
	ECDHPublicKey string `db:"ecdh_public_key" json:"ecdh_public_key"`
	RSAPublicKey  string `db:"rsa_public_key" json:"rsa_public_key"`
	Deleted       bool   `db:"-" json:"deleted,omitempty"`
	// an administrator deactivated the account (ADR 0056): its messages show it
	Deactivated bool `db:"deactivated" json:"deactivated,omitempty"`
}

// readProfiles names the senders of a page (`profiles=1`), the first historyMaxProfiles in the
// page's order, in one or two queries: profiles, then deleted_accounts for those not found there.
// Only for a member of the channel (serveHistory): the senders of its messages (ADR 0077).
func readProfiles(db dbx.Builder, messages []historyMessage) ([]historyProfile, error) {
	ids := []any{}
	seen := map[string]bool{}
	for _, m := range messages {
		if !seen[m.Sender] && len(ids) < historyMaxProfiles {
			seen[m.Sender] = true
			ids = append(ids, m.Sender)
		}
	}
	found := []historyProfile{}
	if len(ids) == 0 {
		return found, nil
	}
	if err := db.Select("id", "username", "ecdh_public_key", "rsa_public_key", "deactivated").From("profiles").Where(dbx.In("id", ids...)).All(&found); err != nil {
		return nil, err
	}
	for _, p := range found {
		delete(seen, p.ID)
	}
	missing := []any{}
	for _, id := range ids {
		if seen[id.(string)] {
			missing = append(missing, id)
		}
	}
	if len(missing) == 0 {
		return found, nil
	}
	deleted := []historyProfile{}
	if err := db.Select("id", "ecdh_public_key", "rsa_public_key").From("deleted_accounts").Where(dbx.In("id", missing...)).All(&deleted); err != nil {
		return nil, err
	}
	for i := range deleted {
		deleted[i].Deleted = true
	}
	return append(found, deleted...), nil
}
