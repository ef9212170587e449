package main

import (
	"crypto/hmac"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"os"

	"github.com/pocketbase/pocketbase/apis"
	"github.com/pocketbase/pocketbase/core"
	"github.com/pocketbase/pocketbase/tools/hook"
)

// The headers only the web server may set (docs/decisions/0069-what-reaches-pocketbase-directly.md):
// the browser's address (X-Forwarded-For, which PocketBase's rate limits and the audit log count
// under), the device that signed in before (X-ChatCrypt-Device, its own sign-in budget) and the
// browser's summary (X-ChatCrypt-Agent, recorded with the session). A request carries them with the
// proof of the shared secret in X-ChatCrypt-Proxy; without it (anyone else who reaches PocketBase)
// they are removed before anything reads them, so the request counts under the address it came from.
const (
	proxyProofHeader = "X-ChatCrypt-Proxy"
	// what the proof signs: the secret itself never travels
	proxyProofMessage = "ChatCrypt web server"
)

var proxyOnlyHeaders = []string{"X-Forwarded-For", "X-ChatCrypt-Device", sessionAgentHeader}

// fromWebServerKey marks, in a request's event store, a request that proved the shared secret.
const fromWebServerKey = "chatcryptFromWebServer"

// fromWebServer reports whether the request came from the web server (it proved the shared secret).
func fromWebServer(e *core.RequestEvent) bool {
	from, _ := e.Get(fromWebServerKey).(bool)
	return from
}

// proxyProof is what the web server sends in X-ChatCrypt-Proxy for a secret (app/server/proxy.server.ts).
func proxyProof(secret string) string {
	mac := hmac.New(sha256.New, []byte(secret))
	mac.Write([]byte(proxyProofMessage))
	return hex.EncodeToString(mac.Sum(nil))
}

// fromProxy reports whether a request proves the shared secret; never without a secret configured.
func fromProxy(header, expected string) bool {
	return expected != "" && subtle.ConstantTimeCompare([]byte(header), []byte(expected)) == 1
}

func registerProxySecret(app core.App) {
	expected := ""
	if secret := os.Getenv("PB_PROXY_SECRET"); secret != "" {
		expected = proxyProof(secret)
	}
	app.OnServe().BindFunc(func(se *core.ServeEvent) error {
		se.Router.Bind(&hook.Handler[*core.RequestEvent]{
			Id: "chatcryptProxySecret",
			// before everything that reads the address: the activity log, the rate limiters, the hooks
			Priority: apis.DefaultWWWRedirectMiddlewarePriority + 1,
			Func: func(e *core.RequestEvent) error {
				header := e.Request.Header
				if fromProxy(header.Get(proxyProofHeader), expected) {
					e.Set(fromWebServerKey, true)
				} else {
					for _, name := range proxyOnlyHeaders {
						header.Del(name)
					}
					for _, name := range e.App.Settings().TrustedProxy.Headers {
						header.Del(name)
					}
				}
				header.Del(proxyProofHeader)
				return e.Next()
			},
		})
		return se.Next()
	})
}
