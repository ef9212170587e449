package main

import (
	"net/netip"
	"strings"
	"sync"
	"time"

	"github.com/pocketbase/pocketbase/apis"
	"github.com/pocketbase/pocketbase/core"
	"github.com/pocketbase/pocketbase/tools/hook"
	"golang.org/x/time/rate"
)

// Rate limits per signed-in account and session (docs/decisions/0058-limits-per-account.md, 0068; pb_migrations/1795367600_limits_per_account.js). PocketBase's own
// limiter counts per address, which punished an office: twenty people behind one router shared one
// budget. The settings' rules now apply to guests only (sign-up, sign-in, password reset keep their
// per-address limits); a signed-in request is counted against its account with these rules, the most
// specific first, in the same label form as the settings' ("METHOD /path", a trailing "/" for a prefix).
var accountLimitRules = []core.RateLimitRule{
	// each join is an online guess of a channel password
	{Label: "POST /api/chat/channels/join", Duration: 60, MaxRequests: 10},
	{Label: "POST /api/chat/channels", Duration: 60, MaxRequests: 20},
	{Label: "POST /api/chat/recovery-key", Duration: 60, MaxRequests: 10},
	{Label: "POST /api/collections/", Duration: 5, MaxRequests: 20},
	{Label: "/api/chat/", Duration: 10, MaxRequests: 60},
	{Label: "/api/batch", Duration: 1, MaxRequests: 3},
	{Label: "/api/", Duration: 10, MaxRequests: 300},
}

// accountLimitIdle is how long an account's counters are kept after its last request.
const accountLimitIdle = 30 * time.Minute

// Each session (a signed-in device) has a rule's budget, the account as a whole accountDevicesShare
// times it (docs/decisions/0068-caps-per-account.md): one runaway device is refused before it uses
// up what the person's other devices need, and many sessions of one account add up to no more.
const accountDevicesShare = 2

type accountLimiter struct {
	limiter *rate.Limiter
	last    time.Time
}

type accountLimits struct {
	mu       sync.Mutex
	limiters map[string]*accountLimiter
	swept    time.Time
}

// allow counts one request of `account` under `rule`: a bucket of MaxRequests refilled over Duration.
func (l *accountLimits) allow(account string, rule core.RateLimitRule, now time.Time) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	if now.Sub(l.swept) > accountLimitIdle {
		for key, entry := range l.limiters {
			if now.Sub(entry.last) > accountLimitIdle {
				delete(l.limiters, key)
			}
		}
		l.swept = now
	}
	key := account + "\x00" + rule.Label
	entry := l.limiters[key]
	if entry == nil {
		every := time.Duration(rule.Duration) * time.Second / time.Duration(rule.MaxRequests)
		entry = &accountLimiter{limiter: rate.NewLimiter(rate.Every(every), rule.MaxRequests)}
		l.limiters[key] = entry
	}
	entry.last = now
	return entry.limiter.AllowN(now, 1)
}

const (
	tooManyFromDevice  = "Too many requests from this device. Please wait a moment."
	tooManyFromAccount = "Too many requests from this account. Please wait a moment."
)

// refusal counts one request of a session (its token's hash; "" when unknown) of `account` under
// `rule`, against the session's budget, then the account's: "" when allowed, else why not.
func (l *accountLimits) refusal(account, session string, rule core.RateLimitRule, now time.Time) string {
	if session != "" && !l.allow("session\x00"+session, rule, now) {
		return tooManyFromDevice
	}
	whole := rule
	whole.MaxRequests *= accountDevicesShare
	whole.Label = "account " + rule.Label
	if !l.allow(account, whole, now) {
		return tooManyFromAccount
	}
	return ""
}

// accountRule is the rule for a request: its "METHOD /path" or "/path" label, exactly or by prefix.
func accountRule(method, path string) (core.RateLimitRule, bool) {
	config := core.RateLimitsConfig{Rules: accountLimitRules}
	return config.FindRateLimitRule([]string{method + " " + path, path})
}

func registerAccountLimits(app core.App) {
	limits := &accountLimits{limiters: map[string]*accountLimiter{}}
	app.OnServe().BindFunc(func(se *core.ServeEvent) error {
		se.Router.Bind(&hook.Handler[*core.RequestEvent]{
			Id: "chatcryptAccountRateLimit",
			// after the auth token is read, beside PocketBase's own limiter
			Priority: apis.DefaultRateLimitMiddlewarePriority + 1,
			Func: func(e *core.RequestEvent) error {
				if e.Auth == nil || e.HasSuperuserAuth() || skipLimits(e) {
					return e.Next()
				}
				session, _ := e.Get(sessionHashKey).(string)
				if rule, ok := accountRule(e.Request.Method, e.Request.URL.Path); ok {
					if refused := limits.refusal(e.Auth.Id, session, rule, time.Now()); refused != "" {
						return e.TooManyRequestsError(refused, nil)
					}
				}
				return e.Next()
			},
		})
		return se.Next()
	})
}

// skipLimits mirrors PocketBase's own exemptions: limits turned off, or an address on the exempt list.
func skipLimits(e *core.RequestEvent) bool {
	settings := e.App.Settings().RateLimits
	if !settings.Enabled {
		return true
	}
	addr, err := netip.ParseAddr(e.RealIP())
	if err != nil {
		return false
	}
	for _, item := range settings.ExcludedIPs {
		if prefix, err := netip.ParsePrefix(item); err == nil && prefix.Contains(addr) {
			return true
		}
		if one, err := netip.ParseAddr(strings.TrimSpace(item)); err == nil && one == addr {
			return true
		}
	}
	return false
}
