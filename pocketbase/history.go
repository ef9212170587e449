package main

import (
	"database/sql"
	"errors"
	"fmt"
	"net/http"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/pocketbase/dbx"
	"github.com/pocketbase/pocketbase/core"
)

// A page of a channel's history in one request, at a cost that does not grow with the channel
// (docs/decisions/0020-history-page.md):
//
//	GET /api/chat/history?channel=<id>&limit=<1..500>[&before=<created>][&count=1]
//	GET /api/chat/history?channel=<id>&limit=<1..500>&around=<message id>
//	GET /api/chat/history?channel=<id>&limit=<1..500>&after=<created>
//
// answers the channel's newest `limit` messages before `before` (edits and reactions not counted),
// oldest first, then the edits and reactions of exactly those messages, each message with its files
// and link previews, in the shape of PocketBase's records API (expand included). The caller must be
// a member of the channel, the rule every one of those collections lists by; it is checked once,
// against the member cache, instead of for every row. A non-member gets an empty page, as the
// records API gives them. Four queries whatever the channel's size (five with the count, which
// counts the channel's messages in its index). With `around`, the page is the messages around that
// one (half before it, it, the rest after), and `hasNewer` says whether newer ones follow: a jump to
// any message costs one page, wherever it is (two more queries: the message, and the newer half).
const (
	historyPath           = "/api/chat/history"
	historyMaxLimit       = 500
	historyMaxAnnotations = 5000
)

var (
	historyChannel = regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$`)
	historyBefore  = regexp.MustCompile(`^[0-9: .TZ-]{1,40}$`)
	historyAround  = regexp.MustCompile(`^[a-z0-9]{15}$`)
)

type historyMessage struct {
	ID               string         `db:"id" json:"id"`
	Channel          string         `db:"channel" json:"channel"`
	Sender           string         `db:"sender" json:"sender"`
	EncryptedContent string         `db:"encrypted_content" json:"encrypted_content"`
	Created          string         `db:"created" json:"created"`
	Kind             string         `db:"kind" json:"kind"`
	Target           string         `db:"target" json:"target"`
	Thread           string         `db:"thread" json:"thread"`
	Epoch            int64          `db:"epoch" json:"epoch"`
	Expand           *historyExpand `db:"-" json:"expand,omitempty"`
}

// historyThread is what a page shows under a thread's root: how many replies, the last one's time
// and who wrote them (user ids, at most a few).
type historyThread struct {
	Root    string   `db:"thread" json:"root"`
	Replies int64    `db:"replies" json:"replies"`
	Last    string   `db:"last" json:"last"`
	Senders string   `db:"senders" json:"-"`
	People  []string `db:"-" json:"people"`
}

type historyAttachment struct {
	ID          string `db:"id" json:"id"`
	Message     string `db:"message" json:"message"`
	Channel     string `db:"channel" json:"channel"`
	FileName    string `db:"file_name" json:"file_name"`
	FileSize    int64  `db:"file_size" json:"file_size"`
	FileType    string `db:"file_type" json:"file_type"`
	StoragePath string `db:"storage_path" json:"storage_path"`
	UploadedBy  string `db:"uploaded_by" json:"uploaded_by"`
	File        string `db:"file" json:"file"`
}

type historyPreview struct {
	ID          string `db:"id" json:"id"`
	Message     string `db:"message" json:"message"`
	Channel     string `db:"channel" json:"channel"`
	URL         string `db:"url" json:"url"`
	Title       string `db:"title" json:"title"`
	Description string `db:"description" json:"description"`
	ImageURL    string `db:"image_url" json:"image_url"`
	Image       string `db:"image" json:"image"`
}

type historyExpand struct {
	Attachments []historyAttachment `json:"file_attachments_via_message,omitempty"`
	Previews    []historyPreview    `json:"link_previews_via_message,omitempty"`
}

type historyPage struct {
	Messages   []historyMessage `json:"messages"`
	Threads    []historyThread  `json:"threads"`
	HasMore    bool             `json:"hasMore"`
	HasNewer   bool             `json:"hasNewer,omitempty"`
	TotalItems *int64           `json:"totalItems,omitempty"`
	// the page's senders, with profiles=1 (history_profiles.go)
	Profiles []historyProfile `json:"profiles,omitempty"`
}

func registerHistory(app core.App) {
	app.OnServe().BindFunc(func(se *core.ServeEvent) error {
		se.Router.GET(historyPath, serveHistory)
		return se.Next()
	})
}

func serveHistory(e *core.RequestEvent) error {
	if e.Auth == nil || e.Auth.Collection().Name != "users" {
		return e.UnauthorizedError("Not authenticated", nil)
	}
	q := e.Request.URL.Query()
	channel := q.Get("channel")
	if !historyChannel.MatchString(channel) {
		return e.BadRequestError("channel must be a channel id.", nil)
	}
	limit, err := strconv.Atoi(q.Get("limit"))
	if err != nil || limit < 1 || limit > historyMaxLimit {
		return e.BadRequestError(fmt.Sprintf("limit must be 1 to %d.", historyMaxLimit), nil)
	}
	before := historyCursor{created: q.Get("before"), id: q.Get("beforeId")}
	if before.created != "" && !historyBefore.MatchString(before.created) {
		return e.BadRequestError("before must be a time.", nil)
	}
	if before.id != "" && (!historyAround.MatchString(before.id) || before.created == "") {
		return e.BadRequestError("beforeId must be a message id, with before.", nil)
	}
	around := q.Get("around")
	if around != "" && (!historyAround.MatchString(around) || before.created != "") {
		return e.BadRequestError("around must be a message id, without before.", nil)
	}
	after := q.Get("after")
	if after != "" && (!historyBefore.MatchString(after) || before.created != "" || around != "") {
		return e.BadRequestError("after must be a time, without before or around.", nil)
	}
	ids, err := members.of(e.App, channel)
	if err != nil {
		return e.InternalServerError("", err)
	}
	if !slices.Contains(ids, e.Auth.Id) {
		return e.JSON(http.StatusOK, historyPage{Messages: []historyMessage{}})
	}
	var page *historyPage
	switch {
	case after != "":
		page, err = readAfter(e.App.DB(), channel, after, limit)
	case around != "":
		page, err = readAround(e.App.DB(), channel, around, limit)
	default:
		page, err = readHistory(e.App.DB(), channel, before, limit, q.Get("count") == "1")
	}
	if errors.Is(err, sql.ErrNoRows) {
		return e.NotFoundError("That message is not in this conversation.", nil)
	}
	if err == nil && q.Get("profiles") == "1" {
		// (without them the page still comes: the browser then asks /api/profiles for its senders)
		if page.Profiles, err = readProfiles(e.App.DB(), page.Messages); err != nil {
			e.App.Logger().Warn("history: the page's senders could not be read", "error", err)
			page.Profiles, err = nil, nil
		}
	}
	if err != nil {
		return e.InternalServerError("", err)
	}
	return e.JSON(http.StatusOK, page)
}

const historyColumns = "id, channel, sender, encrypted_content, created, kind, target, thread, epoch"
const historyMaxPeople = 5

// historyCursor is a place in a channel's history: messages are in (created, id) order, so that
// several created in the same millisecond are each on exactly one page.
type historyCursor struct{ created, id string }

// readHistory is the page's five (or six) queries: the newest `limit` messages before `before` (all
// of them when its time is empty; before its time and, in that same millisecond, below its id when it
// has one).
func readHistory(db dbx.Builder, channel string, before historyCursor, limit int, count bool) (*historyPage, error) {
	where := "created < {:at}"
	switch {
	case before.created == "":
		where = "1"
	case before.id != "":
		where = "created <= {:at} AND (created < {:at} OR id < {:id})"
	}
	newest, more, err := readOlder(db, channel, where, before, limit)
	if err != nil {
		return nil, err
	}
	page := &historyPage{HasMore: more, Threads: []historyThread{}}
	if err := completePage(db, channel, page, newest); err != nil {
		return nil, err
	}
	if count {
		var total int64
		err = db.NewQuery("SELECT COUNT(*) FROM messages WHERE channel = {:channel} AND kind = ''").Bind(dbx.Params{"channel": channel}).Row(&total)
		if err != nil {
			return nil, err
		}
		page.TotalItems = &total
	}
	return page, nil
}

// readOlder is the newest `limit` messages matching `where` (on created and id, against {:at} and
// {:id}), oldest first, and whether there are more.
func readOlder(db dbx.Builder, channel, where string, at historyCursor, limit int) ([]historyMessage, bool, error) {
	newest, more, err := readRun(db, channel, where, "created DESC, id DESC", at, limit)
	slices.Reverse(newest)
	return newest, more, err
}

// readRun is the first `limit` messages matching `where` in `order`, and whether there are more.
func readRun(db dbx.Builder, channel, where, order string, at historyCursor, limit int) ([]historyMessage, bool, error) {
	var run []historyMessage
	err := db.NewQuery("SELECT " + historyColumns + " FROM messages WHERE channel = {:channel} AND kind = '' AND " + where +
		" ORDER BY " + order + " LIMIT {:limit}").Bind(dbx.Params{"channel": channel, "at": at.created, "id": at.id, "limit": limit + 1}).All(&run)
	if err != nil {
		return nil, false, err
	}
	more := len(run) > limit
	if more {
		run = run[:limit]
	}
	return run, more, nil
}

// completePage sets the page's messages followed by their edits and reactions, each message with its
// files and previews, and the page's threads.
func completePage(db dbx.Builder, channel string, page *historyPage, messages []historyMessage) error {
	page.Messages = messages
	if len(messages) == 0 {
		return nil
	}
	in, inParams := idList(messages)
	inParams["channel"] = channel
	inParams["max"] = historyMaxAnnotations
	var annotations []historyMessage
	// "+channel": by the target's index, not the channel's (whose rows grow with the channel).
	err := db.NewQuery("SELECT " + historyColumns + " FROM messages WHERE target IN (" + in +
		") AND +channel = {:channel} AND kind != '' ORDER BY created, id LIMIT {:max}").Bind(inParams).All(&annotations)
	if err != nil {
		return err
	}
	if err := readParts(db, page.Messages, in, inParams); err != nil {
		return err
	}
	// the page's threads: replies counted by the thread index, whatever the channel's size
	err = db.NewQuery("SELECT thread, COUNT(*) AS replies, MAX(created) AS last, GROUP_CONCAT(DISTINCT sender) AS senders FROM messages WHERE thread IN (" +
		in + ") AND (kind = '' OR kind = 'reply') GROUP BY thread").Bind(inParams).All(&page.Threads)
	if err != nil {
		return err
	}
	for i := range page.Threads {
		people := strings.Split(page.Threads[i].Senders, ",")
		page.Threads[i].People = people[:min(len(people), historyMaxPeople)]
	}
	page.Messages = append(page.Messages, annotations...)
	return nil
}
