package main

import (
	"net/http"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/pocketbase/dbx"
	"github.com/pocketbase/pocketbase/core"
)

// GET /api/chat/profiles?ids=a,b,c: the web server's /api/profiles (and every name the pages show).
// Of the ids asked (at most knownProfilesMax), the profiles of the people the caller may know: the
// caller, those who share a channel or conversation with them, those who sent a message to a channel
// they are in (also after leaving it), the other person of a one-to-one conversation the caller had,
// those who asked the caller for a conversation and those the caller blocked. A deleted account
// answers with the keys it left when the caller may know it the same way. Anyone else is left out,
// as if unknown. Each reason is one indexed query over the ids asked.
const knownProfilesPath = "/api/chat/profiles"

const knownProfilesMax = 100

var knownProfileID = regexp.MustCompile(`^[a-z0-9]{15}$`)

// knownProfile: a public profile as /api/profiles answers it (a deleted account's: its keys, no name).
type knownProfile struct {
	ID            string `db:"id" json:"id"`
	Username      string `db:"username" json:"username,omitempty"`
	ECDHPublicKey string `db:"ecdh_public_key" json:"ecdh_public_key"`
	RSAPublicKey  string `db:"rsa_public_key" json:"rsa_public_key"`
	Role          string `db:"role" json:"role,omitempty"`
	Deactivated   bool   `db:"deactivated" json:"deactivated,omitempty"`
	Deleted       bool   `db:"-" json:"deleted,omitempty"`
}

func serveKnownProfiles(e *core.RequestEvent) error {
	if e.Auth == nil || e.Auth.Collection().Name != "users" {
		return e.UnauthorizedError("Not authenticated", nil)
	}
	ids := []any{}
	seen := map[string]bool{}
	for _, id := range strings.Split(e.Request.URL.Query().Get("ids"), ",") {
		if id == "" || seen[id] {
			continue
		}
		if !knownProfileID.MatchString(id) {
			return e.BadRequestError("The ids must be 1 to 100 user ids separated by commas.", nil)
		}
		seen[id] = true
		ids = append(ids, id)
	}
	if len(ids) == 0 || len(ids) > knownProfilesMax {
		return e.BadRequestError("The ids must be 1 to 100 user ids separated by commas.", nil)
	}
	known, err := mayKnow(e.App.DB(), e.Auth.Id, ids)
	if err != nil {
		return e.InternalServerError("", err)
	}
	profiles, err := readKnownProfiles(e.App.DB(), known)
	if err != nil {
		return e.InternalServerError("", err)
	}
	return e.JSON(http.StatusOK, map[string]any{"profiles": profiles})
}

// mayKnow: those of ids the viewer may know (see above), in no particular order.
func mayKnow(db dbx.Builder, viewer string, ids []any) ([]any, error) {
	params := dbx.Params{"viewer": viewer}
	queries := []string{
		// a channel or conversation they are both in now
		"SELECT theirs.user FROM channel_members mine JOIN channel_members theirs ON theirs.channel = mine.channel WHERE mine.user = {:viewer} AND theirs.user IN (%s)",
		// a message of theirs in a channel the viewer is in (its sender's name stays on it after they left)
		"SELECT DISTINCT m.sender FROM messages m WHERE m.sender IN (%s) AND m.channel IN (SELECT channel FROM channel_members WHERE user = {:viewer})",
		// they asked the viewer for a conversation
		"SELECT requester FROM direct_requests WHERE user = {:viewer} AND requester IN (%s)",
		// the viewer blocked them
		"SELECT blocked FROM blocks WHERE user = {:viewer} AND blocked IN (%s)",
	}
	placeholders := make([]string, len(ids))
	for i, id := range ids {
		name := "id" + strconv.Itoa(i)
		params[name] = id
		placeholders[i] = "{:" + name + "}"
	}
	list := strings.Join(placeholders, ",")
	found := map[string]bool{viewer: true}
	for _, q := range queries {
		var got []string
		if err := db.NewQuery(strings.Replace(q, "%s", list, 1)).Bind(params).Column(&got); err != nil {
			return nil, err
		}
		for _, id := range got {
			found[id] = true
		}
	}
	// a one-to-one conversation with them (its key names both, sorted), also after either left it
	keys := []any{}
	for _, id := range ids {
		pair := []string{viewer, id.(string)}
		sort.Strings(pair)
		keys = append(keys, pair[0]+":"+pair[1])
	}
	var direct []string
	if err := db.Select("direct_key").From("channels").Where(dbx.In("direct_key", keys...)).Column(&direct); err != nil {
		return nil, err
	}
	for _, key := range direct {
		for _, id := range strings.Split(key, ":") {
			found[id] = true
		}
	}
	out := []any{}
	for _, id := range ids {
		if found[id.(string)] {
			out = append(out, id)
		}
	}
	return out, nil
}

// readKnownProfiles: the profiles of ids, and for those without one the keys a deleted account left.
func readKnownProfiles(db dbx.Builder, ids []any) ([]knownProfile, error) {
	found := []knownProfile{}
	if len(ids) == 0 {
		return found, nil
	}
	if err := db.Select("id", "username", "ecdh_public_key", "rsa_public_key", "deactivated", "role").From("profiles").Where(dbx.In("id", ids...)).All(&found); err != nil {
		return nil, err
	}
	have := map[string]bool{}
	for _, p := range found {
		have[p.ID] = true
	}
	missing := []any{}
	for _, id := range ids {
		if !have[id.(string)] {
			missing = append(missing, id)
		}
	}
	if len(missing) == 0 {
		return found, nil
	}
	deleted := []knownProfile{}
	if err := db.Select("id", "ecdh_public_key", "rsa_public_key").From("deleted_accounts").Where(dbx.In("id", missing...)).All(&deleted); err != nil {
		return nil, err
	}
	for i := range deleted {
		deleted[i].Deleted = true
	}
	return append(found, deleted...), nil
}
