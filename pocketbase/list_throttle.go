package main

import (
	"math"
	"net/http"

	"github.com/pocketbase/pocketbase/core"
	"github.com/pocketbase/pocketbase/tools/hook"
)

// PocketBase sleeps up to half a second (at random) before answering a filtered list that found
// nothing, once an address has had more than 3 such answers in 3 s: a guard against timing a
// collection's list rule through filters a client writes (apis/record_crud.go, recordsList). Through
// the web server no client writes a filter: every one is built by the web server, with the caller's
// values bound as parameters. But every page asks for lists that are usually empty (a conversation's
// call records, recent threads, a keyring entry not stored yet), and every page behind one address
// (an office behind one NAT; every browser of a test run) shares the count, so those answers came
// 0-500 ms late at random, on a busy server all the time (docs/decisions/0088-no-list-throttle-for-the-web-server.md).
//
// An empty list asked by the web server is answered at once. Anyone else who reaches PocketBase
// directly (without the shared secret) keeps the throttle.
func registerListThrottleBypass(app core.App) {
	app.OnRecordsListRequest().Bind(&hook.Handler[*core.RecordsListRequestEvent]{
		Id: "chatcryptNoListThrottleForWebServer",
		// after every other handler: what they changed stands, and they all ran
		Priority: math.MaxInt32,
		Func: func(e *core.RecordsListRequestEvent) error {
			if len(e.Records) > 0 || !fromWebServer(e.RequestEvent) {
				return e.Next()
			}
			// (an empty list has nothing to expand or hide: what PocketBase would answer, without the wait)
			return e.JSON(http.StatusOK, e.Result)
		},
	})
}
