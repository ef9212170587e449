package main

import (
	"net/http"
	"strings"

	"github.com/pocketbase/dbx"
	"github.com/pocketbase/pocketbase/apis"
	"github.com/pocketbase/pocketbase/core"
	"github.com/pocketbase/pocketbase/tools/search"
)

// Who sees whose profile (docs/decisions/0077-profiles-to-those-who-share-and-the-sign-up-answer.md).
//
// The profiles collection's own list and view rules allow only the person themself
// (pb_migrations/1795369100_profiles_shared.js): whatever reads the collection through a rule
// (realtime, a join in another collection's filter) fails closed. Here PocketBase's list and view
// of the collection let a signed-in user also see the people they share a channel or conversation
// with, by one indexed query (their memberships, then each of those channels' members) instead of
// the rule's `@collection` joins, which would join every profile with every membership twice.
// Superusers are left to PocketBase.

// PocketBase's routes of a list and of a view of one collection's records (named by name or id).
const (
	recordsListRoute = "/api/collections/{collection}/records"
	recordViewRoute  = "/api/collections/{collection}/records/{id}"
)

// sharedWith is the condition "the record is the viewer, or shares a channel with them" on profiles.
func sharedWith(viewer string) dbx.Expression {
	return dbx.NewExp(
		"[[profiles.id]] = {:viewer} OR [[profiles.id]] IN (SELECT [[theirs.user]] FROM {{channel_members}} mine"+
			" JOIN {{channel_members}} theirs ON [[theirs.channel]] = [[mine.channel]] WHERE [[mine.user]] = {:viewer})",
		dbx.Params{"viewer": viewer},
	)
}

func registerSharedProfiles(app core.App) {
	app.OnServe().BindFunc(func(se *core.ServeEvent) error {
		// (priority 0: after the token is read and the account's rate limit counted, account_limits.go)
		se.Router.BindFunc(guardProfileRecords)
		se.Router.GET(knownProfilesPath, serveKnownProfiles)
		return se.Next()
	})
}

// guardProfileRecords answers a signed-in user's list or view of profiles with those they share a
// channel with (and their own); every other request goes on unchanged.
func guardProfileRecords(e *core.RequestEvent) error {
	if e.Request.Method != http.MethodGet || e.Auth == nil || e.Auth.Collection().Name != "users" {
		return e.Next()
	}
	// the route that matched (the patterns carry the method first), not the path as sent
	view := strings.HasSuffix(e.Request.Pattern, " "+recordViewRoute)
	if !view && !strings.HasSuffix(e.Request.Pattern, " "+recordsListRoute) {
		return e.Next()
	}
	collection, err := e.App.FindCachedCollectionByNameOrId(e.Request.PathValue("collection"))
	if err != nil || collection == nil || collection.Name != "profiles" {
		return e.Next()
	}
	if view {
		return viewSharedProfile(e, collection, e.Request.PathValue("id"))
	}
	return listSharedProfiles(e, collection)
}

func listSharedProfiles(e *core.RequestEvent, collection *core.Collection) error {
	info, err := e.RequestInfo()
	if err != nil {
		return e.BadRequestError("", err)
	}
	// as PocketBase's own list: only superusers filter or sort by other collections or the request
	for _, param := range []string{search.FilterQueryParam, search.SortQueryParam} {
		for _, field := range []string{"@collection.", "@request."} {
			if strings.Contains(info.Query[param], field) {
				return e.ForbiddenError("Only superusers can filter by "+field, nil)
			}
		}
	}
	resolver := core.NewRecordFieldResolver(e.App, collection, info, true)
	resolver.SetAllowHiddenFields(false)
	query := e.App.RecordQuery(collection).AndWhere(sharedWith(e.Auth.Id))
	records := []*core.Record{}
	result, err := search.NewProvider(resolver).Query(query).CountCol("_rowid_").ParseAndExec(e.Request.URL.Query().Encode(), &records)
	if err != nil {
		return e.BadRequestError("Something went wrong while processing your request.", nil)
	}
	if err := apis.EnrichRecords(e, records); err != nil {
		return e.InternalServerError("", err)
	}
	return e.JSON(http.StatusOK, result)
}

func viewSharedProfile(e *core.RequestEvent, collection *core.Collection, id string) error {
	record := &core.Record{}
	err := e.App.RecordQuery(collection).AndWhere(dbx.HashExp{"profiles.id": id}).AndWhere(sharedWith(e.Auth.Id)).Limit(1).One(record)
	if err != nil {
		return e.NotFoundError("", nil)
	}
	if err := apis.EnrichRecord(e, record); err != nil {
		return e.InternalServerError("", err)
	}
	return e.JSON(http.StatusOK, record)
}
