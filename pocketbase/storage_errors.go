package main

import (
	"errors"
	"net/http"
	"strings"
	"syscall"

	"github.com/pocketbase/pocketbase/apis"
	"github.com/pocketbase/pocketbase/core"
	"github.com/pocketbase/pocketbase/tools/hook"
	"github.com/pocketbase/pocketbase/tools/router"
)

// PocketBase answers a write that failed because the disk is full with the same 400 "Failed to
// create record." as a request its API rules refused, so nobody could tell the two apart. Here a
// full disk becomes its own answer: 507 with a message the web app passes on to the person.
const diskFullMessage = "The server's disk is full. Please tell the administrator."

func isDiskFull(err error) bool {
	for err != nil {
		if errors.Is(err, syscall.ENOSPC) {
			return true
		}
		text := strings.ToLower(err.Error())
		if strings.Contains(text, "database or disk is full") || strings.Contains(text, "no space left on device") {
			return true
		}
		var apiErr *router.ApiError
		if errors.As(err, &apiErr) {
			raw, ok := apiErr.RawData().(error)
			if !ok {
				return false
			}
			err = raw
			continue
		}
		return false
	}
	return false
}

func registerStorageErrors(app core.App) {
	app.OnServe().BindFunc(func(se *core.ServeEvent) error {
		se.Router.Bind(&hook.Handler[*core.RequestEvent]{
			Id:       "chatcryptDiskFull",
			Priority: apis.DefaultRateLimitMiddlewarePriority + 1,
			Func: func(e *core.RequestEvent) error {
				err := e.Next()
				if err != nil && isDiskFull(err) {
					e.App.Logger().Error("a write failed: the disk is full", "path", e.Request.URL.Path, "error", err)
					return router.NewApiError(http.StatusInsufficientStorage, diskFullMessage, nil)
				}
				return err
			},
		})
		return se.Next()
	})
}
