package main

import (
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/pocketbase/dbx"
	"github.com/pocketbase/pocketbase/apis"
	"github.com/pocketbase/pocketbase/core"
	"github.com/pocketbase/pocketbase/tools/types"
)

// Retention (docs/decisions/0065-retention.md): messages older than the policy that applies to their
// conversation are deleted with everything that hangs off them, by a sweep every ten minutes. The
// settings are written by pb_hooks/retention.pb.js; this file reads them, schedules the sweep and lets
// a superuser run it now (POST /api/chat/retention/sweep[?batch=N][&now=T]: used by operators, and by
// the tests, which move the sweep's clock forward with `now`). The
// batches are retention_sweep.go.

const retentionJob = "chatcryptRetention"
const retentionSchedule = "*/10 * * * *"
const workspaceSettingsID = "workspace000001"

// retentionPolicy is the workspace's setting: Days 0 keeps messages forever.
type retentionPolicy struct {
	Days       int  `json:"days" db:"retention_days"`
	PerChannel bool `json:"per_channel" db:"retention_per_channel"`
	KeepPinned bool `json:"keep_pinned" db:"retention_keep_pinned"`
}

// effectiveDays is the period that applies to a channel: the shorter of the workspace's and (when the
// workspace lets channel admins set one) the channel's own; 0 is forever. Written here only: the
// hooks check what a channel admin may set, pages read the result (GET /api/chat/retention).
func (p retentionPolicy) effectiveDays(channelDays int) int {
	if !p.PerChannel || channelDays <= 0 {
		return p.Days
	}
	if p.Days <= 0 || channelDays < p.Days {
		return channelDays
	}
	return p.Days
}

func readRetentionPolicy(app core.App) retentionPolicy {
	var p retentionPolicy
	err := app.DB().NewQuery("SELECT retention_days, retention_per_channel, retention_keep_pinned FROM workspace_settings WHERE id = {:id}").
		Bind(dbx.Params{"id": workspaceSettingsID}).One(&p)
	if err != nil {
		return retentionPolicy{}
	}
	return p
}

// sweeping keeps two sweeps (the schedule and a superuser's) from running at once.
var sweeping sync.Mutex

func registerRetention(app core.App) {
	app.OnServe().BindFunc(func(se *core.ServeEvent) error {
		app.Cron().MustAdd(retentionJob, retentionSchedule, func() {
			if _, err := runRetentionSweep(app, time.Now(), retentionBatchSize); err != nil {
				app.Logger().Warn("retention sweep failed", "error", err)
			}
		})
		se.Router.GET("/api/chat/retention", func(e *core.RequestEvent) error {
			answer, err := retentionFor(e.App, e.Auth.Id)
			if err != nil {
				return apis.NewApiError(http.StatusServiceUnavailable, "The retention policy could not be read. Please try again.", nil)
			}
			return e.JSON(http.StatusOK, answer)
		}).Bind(apis.RequireAuth("users"))
		se.Router.POST("/api/chat/retention/sweep", func(e *core.RequestEvent) error {
			batch := retentionBatchSize
			if raw := e.Request.URL.Query().Get("batch"); raw != "" {
				n, err := strconv.Atoi(raw)
				if err != nil || n < 1 || n > 5000 {
					return apis.NewBadRequestError("batch must be a whole number from 1 to 5000.", nil)
				}
				batch = n
			}
			now := time.Now()
			if raw := e.Request.URL.Query().Get("now"); raw != "" {
				at, err := types.ParseDateTime(raw)
				if err != nil || at.IsZero() {
					return apis.NewBadRequestError("now must be a date and time.", nil)
				}
				now = at.Time()
			}
			report, err := runRetentionSweep(e.App, now, batch)
			if err != nil {
				return apis.NewApiError(http.StatusServiceUnavailable, "The retention sweep could not finish; it runs again later.", nil)
			}
			return e.JSON(http.StatusOK, report)
		}).Bind(apis.RequireSuperuserAuth())
		return se.Next()
	})
}

// retentionAnswer is what a member's pages need: the workspace's policy and, for each of the member's
// conversations whose messages are not kept forever, the days that apply (the header's "Messages are
// kept for 90 days"; every device drops what is older from its search index and caches).
type retentionAnswer struct {
	retentionPolicy
	Channels map[string]int `json:"channels"`
	// SweptAt is the clock of the last sweep that deleted anything ("" before one): pages drop what is
	// older than the period before it, whatever their own clock says and whatever their index saved.
	SweptAt string `json:"swept_at"`
}

func retentionFor(app core.App, userID string) (retentionAnswer, error) {
	answer := retentionAnswer{retentionPolicy: readRetentionPolicy(app), Channels: map[string]int{}, SweptAt: readSweptAt(app)}
	var rows []struct {
		ID   string `db:"id"`
		Days int    `db:"retention_days"`
	}
	err := app.DB().NewQuery("SELECT c.id, c.retention_days FROM channels c JOIN channel_members m ON m.channel = c.id WHERE m.user = {:user}").
		Bind(dbx.Params{"user": userID}).All(&rows)
	if err != nil {
		return answer, err
	}
	for _, row := range rows {
		if days := answer.effectiveDays(row.Days); days > 0 {
			answer.Channels[row.ID] = days
		}
	}
	return answer, nil
}

// runRetentionSweep sweeps every conversation whose policy is not "forever" and appends one audit entry
// (`retention.swept`, with the counts and the policy) when anything was deleted.
func runRetentionSweep(app core.App, now time.Time, batch int) (sweepReport, error) {
	sweeping.Lock()
	defer sweeping.Unlock()
	started := time.Now()
	policy := readRetentionPolicy(app)
	report := sweepReport{Policy: policy}
	channels, err := channelCutoffs(app, policy, now)
	if err != nil {
		return report, err
	}
	s, err := newSweeper(app, policy.KeepPinned, batch)
	if err != nil {
		return report, err
	}
	for _, c := range channels {
		days := c.Days
		n, err := s.sweepChannel(c.ID, c.Cutoff)
		if err != nil {
			return s.report(report, started), err
		}
		if n > 0 {
			report.Channels++
			// (its members' open pages read their counts again: what expired unread no longer counts)
			if relay.listening() {
				if ids, err := channelMembers(app, c.ID); err == nil {
					relay.publish("unread", ids, map[string]string{"channel": c.ID})
				}
			}
			if c.Own > 0 && days == c.Own && days != policy.Days {
				report.ChannelPolicies++
			}
		}
	}
	report = s.report(report, started)
	if report.Rows > 0 {
		if err := recordSweptAt(app, now); err != nil {
			app.Logger().Warn("retention: the sweep's time was not recorded", "error", err)
		}
		err = auditAppend(app, nil, auditWhat{Action: "retention.swept", Details: map[string]any{
			"messages": report.Messages, "files": report.Files, "previews": report.Previews,
			"channels": report.Channels, "channel_policies": report.ChannelPolicies, "batches": report.Batches,
			"longest_lock_ms": report.LongestLockMs, "median_lock_ms": report.MedianLockMs, "p99_lock_ms": report.P99LockMs, "workspace_days": policy.Days,
			"per_channel": policy.PerChannel, "keep_pinned": policy.KeepPinned,
		}})
	}
	return report, err
}

// channelCutoff: a conversation whose messages are not kept forever under a policy, with its own
// setting, the days that apply and the time before which its messages expire.
type channelCutoff struct {
	ID     string
	Own    int
	Days   int
	Cutoff string
}

// channelCutoffs lists the conversations whose messages expire under the policy at `now`.
func channelCutoffs(app core.App, policy retentionPolicy, now time.Time) ([]channelCutoff, error) {
	var channels []struct {
		ID   string `db:"id"`
		Days int    `db:"retention_days"`
	}
	if err := app.DB().NewQuery("SELECT id, retention_days FROM channels").All(&channels); err != nil {
		return nil, err
	}
	var out []channelCutoff
	for _, c := range channels {
		if days := policy.effectiveDays(c.Days); days > 0 {
			out = append(out, channelCutoff{ID: c.ID, Own: c.Days, Days: days, Cutoff: cutoffOf(days, now)})
		}
	}
	return out, nil
}

// cutoffOf is the creation time before which a period of `days` deletes, as stored.
func cutoffOf(days int, now time.Time) string {
	return now.UTC().Add(-time.Duration(days) * 24 * time.Hour).Format("2006-01-02 15:04:05.000Z")
}

// recordSweptAt keeps the clock of a sweep that deleted messages (never moving it back).
func recordSweptAt(app core.App, now time.Time) error {
	at := now.UTC().Format(types.DefaultDateLayout)
	_, err := app.DB().NewQuery("UPDATE workspace_settings SET retention_swept_at = {:at} WHERE id = {:id} AND (retention_swept_at = '' OR retention_swept_at < {:at})").
		Bind(dbx.Params{"at": at, "id": workspaceSettingsID}).Execute()
	return err
}

// readSweptAt is the last recorded sweep's clock as ISO 8601, or "".
func readSweptAt(app core.App) string {
	var row struct {
		At types.DateTime `db:"retention_swept_at"`
	}
	err := app.DB().NewQuery("SELECT retention_swept_at FROM workspace_settings WHERE id = {:id}").Bind(dbx.Params{"id": workspaceSettingsID}).One(&row)
	if err != nil || row.At.IsZero() {
		return ""
	}
	return row.At.Time().UTC().Format(time.RFC3339Nano)
}
