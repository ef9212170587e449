package main

import (
	"bytes"
	"errors"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/pocketbase/pocketbase/apis"
	"github.com/pocketbase/pocketbase/core"
	"github.com/pocketbase/pocketbase/tools/hook"
	"github.com/pocketbase/pocketbase/tools/router"
)

// A chunked body (no Content-Length) to one of our server functions is read before the route runs,
// up to the largest body any of them takes (issue 47): past that the answer is 413 at once, before
// the session check or anything else; within it, the body gets its length, so the route's own limit
// ($apis.bodyLimit) answers 413 before the handler runs, as it does for a declared length. Before,
// a route answered 400 ("not a JSON object") or reset the connection, depending on when it read.
// A declared body the route refuses as too large (413) is read and thrown away before the answer,
// as the chunked one is, so that the sender reads the 413 instead of meeting a reset.
const (
	// the largest $apis.bodyLimit of pb_hooks (4,200 KiB: a key-package upload) and a little more
	chunkedBodyMax = 4300 * 1024
	// what is read and thrown away after a refusal, so the sender gets the answer instead of a reset
	chunkedDrainMax = 64 << 20
	// how long a refused body may take to arrive before the connection is simply closed
	drainTimeout = 10 * time.Second
)

func registerChunkedLimit(app core.App) {
	app.OnServe().BindFunc(func(se *core.ServeEvent) error {
		se.Router.Bind(&hook.Handler[*core.RequestEvent]{
			Id: "chatcryptChunkedLimit",
			// just before the routes' own body limits
			Priority: apis.DefaultBodyLimitMiddlewarePriority - 1,
			Func: func(e *core.RequestEvent) error {
				r := e.Request
				if r.Body == nil || r.Body == http.NoBody || !strings.HasPrefix(r.URL.Path, "/api/chat/") {
					return e.Next()
				}
				if r.ContentLength >= 0 {
					body := r.Body // (the route's own limit replaces it with a reader that stops at the limit)
					return drainWhenTooLarge(e, body, e.Next())
				}
				body, err := io.ReadAll(io.LimitReader(r.Body, chunkedBodyMax+1))
				if err != nil {
					return e.BadRequestError("The request's body could not be read.", nil)
				}
				if len(body) > chunkedBodyMax {
					_, _ = io.Copy(io.Discard, io.LimitReader(r.Body, chunkedDrainMax))
					return apis.ErrRequestEntityTooLarge
				}
				r.Body = &router.RereadableReadCloser{ReadCloser: io.NopCloser(bytes.NewReader(body))}
				r.ContentLength = int64(len(body))
				return e.Next()
			},
		})
		return se.Next()
	})
}

// drainWhenTooLarge reads and throws away what is left of a body the route refused as too large
// (at most chunkedDrainMax, for at most drainTimeout), then answers that refusal.
func drainWhenTooLarge(e *core.RequestEvent, body io.Reader, err error) error {
	var apiErr *router.ApiError
	if errors.As(err, &apiErr) && apiErr.Status == http.StatusRequestEntityTooLarge {
		_ = http.NewResponseController(e.Response).SetReadDeadline(time.Now().Add(drainTimeout))
		_, _ = io.Copy(io.Discard, io.LimitReader(body, chunkedDrainMax))
	}
	return err
}
