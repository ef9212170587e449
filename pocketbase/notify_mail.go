package main

import (
	"html"
	"net/mail"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/dop251/goja"
	"github.com/pocketbase/pocketbase/core"
	"github.com/pocketbase/pocketbase/tools/mailer"
)

// Email notifications (docs/decisions/0006-translation-and-email.md). A notification mail goes two
// ways, in one wording (composeNotification): asked for by one of the person's open pages, which read
// the message (POST /api/chat/notify-email, pb_hooks/email_notification.pb.js, through
// $notifyMail.compose), or sent from here when none of their pages is open and their notification
// rules want the message (the push worker's targets, push_send.go). A mail sent from here carries no
// message text, whatever the account chose: the server cannot read it.

const (
	// one mail about a conversation per person this often while they are away
	awayMailEvery = 10 * time.Minute
	// and at most this many to one person in an hour
	awayMailsPerHour = 10
	// a mail's text, when its reader asked for it (the page path only)
	maxMailContentChars = 2000
)

// notificationAbout is what a notification mail says: who wrote, where, whether it named its reader.
type notificationAbout struct {
	Sender  string // a username
	Channel string // the channel's name; "" for a direct conversation, whose name the mail never carries (ADR 50)
	Direct  bool
	Mention bool
	Content string // the message text, only when its reader asked for it
	Link    string // where the message is in the app (notificationLink); "" when the app's address is not set
}

// notificationLink is the app's address of a message: its thread for a reply (as a push's click, and the
// page's own notification, open it), else the conversation at the message. "" without the app's address.
func notificationLink(appURL, conversation, message, thread string) string {
	appURL = strings.TrimRight(appURL, "/")
	if appURL == "" || conversation == "" {
		return ""
	}
	base := appURL + "/c/" + url.PathEscape(conversation)
	switch {
	case thread != "":
		return base + "/t/" + url.PathEscape(thread)
	case message != "":
		return base + "/m/" + url.PathEscape(message)
	}
	return base
}

type notificationMail struct {
	Subject, Text, HTML string
}

// composeNotification is the mail's subject and bodies; the text is cut at 2,000 characters.
func composeNotification(a notificationAbout) notificationMail {
	a.Sender, a.Channel = singleLine(a.Sender), singleLine(a.Channel)
	place := "#" + a.Channel
	if a.Direct {
		place = "a direct message"
	}
	subject, sentence := "New message in "+place, "@"+a.Sender+" sent a new message in "+place+"."
	switch {
	case a.Mention:
		subject, sentence = "New mention in "+place, "@"+a.Sender+" mentioned you in "+place+"."
	case a.Direct:
		subject, sentence = "New direct message", "@"+a.Sender+" sent you a direct message."
	}
	const open, rest = "Open ChatCrypt", " to read it. You can turn these emails off in Notification Settings."
	const footer = open + rest
	text := []string{sentence, ""}
	parts := []string{"<p>" + html.EscapeString(sentence) + "</p>"}
	if a.Content != "" {
		content := a.Content
		if runes := []rune(content); len(runes) > maxMailContentChars {
			content = string(runes[:maxMailContentChars]) + "…"
		}
		text = append(text, content, "")
		parts = append(parts, `<blockquote style="white-space: pre-wrap">`+html.EscapeString(content)+"</blockquote>")
	}
	text = append(text, footer)
	if a.Link == "" {
		parts = append(parts, "<p>"+html.EscapeString(footer)+"</p>")
	} else {
		text = append(text, "", a.Link)
		parts = append(parts, `<p><a href="`+html.EscapeString(a.Link)+`">`+open+"</a>"+html.EscapeString(rest)+"</p>")
	}
	return notificationMail{Subject: subject, Text: strings.Join(text, "\n"), HTML: strings.Join(parts, "\n")}
}

// singleLine keeps printable text only: a line break in a name would shape the mail's headers or lines.
func singleLine(value string) string {
	return strings.TrimSpace(strings.Map(func(r rune) rune {
		if r < 0x20 || (r >= 0x7f && r <= 0x9f) || r == 0x2028 || r == 0x2029 {
			return ' '
		}
		return r
	}, value))
}

// bindNotifyMail sets the global $notifyMail for the page path's route: compose(sender, channelName,
// direct, mention, content, appURL, conversationId, messageId, threadRoot) -> {subject, text, html}, and
// mailed(userId, conversationId).
func bindNotifyMail(vm *goja.Runtime) {
	obj := vm.NewObject()
	_ = obj.Set("compose", func(sender, channel string, direct, mention bool, content, appURL, conversation, message, thread string) map[string]string {
		link := notificationLink(appURL, conversation, message, thread)
		m := composeNotification(notificationAbout{Sender: sender, Channel: channel, Direct: direct, Mention: mention, Content: content, Link: link})
		return map[string]string{"subject": m.Subject, "text": m.Text, "html": m.HTML}
	})
	// mailed(userId, conversationId): a page's mail about the conversation went; the one sent while no page
	// is open waits its while after it
	_ = obj.Set("mailed", func(userID, conversation string) {
		if pushes != nil {
			pushes.away.last.pass(userID+" "+conversation, time.Now())
		}
	})
	_ = vm.Set("$notifyMail", obj)
}

// awayMail sends the notification mails of a message to those of its targets (members it should
// notify, none of whose pages is open) who turned email notifications on for a verified address.
type awayMail struct {
	last *onceEvery // "user conversation": one mail every awayMailEvery
	mu   sync.Mutex
	sent map[string][]time.Time // user -> mails in the last hour
}

func newAwayMail() *awayMail {
	return &awayMail{last: newOnceEvery(awayMailEvery), sent: map[string][]time.Time{}}
}

// due reports whether the user may get a mail about the conversation now, and counts it.
func (m *awayMail) due(userID, conversation string, now time.Time) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	recent := m.sent[userID][:0:0]
	for _, at := range m.sent[userID] {
		if now.Sub(at) < time.Hour {
			recent = append(recent, at)
		}
	}
	if len(recent) == 0 {
		delete(m.sent, userID)
	}
	if len(recent) >= awayMailsPerHour || !m.last.pass(userID+" "+conversation, now) {
		if len(recent) > 0 {
			m.sent[userID] = recent
		}
		return false
	}
	m.sent[userID] = append(recent, now)
	return true
}

func (m *awayMail) send(app core.App, targets []string, channel *core.Record, message *core.Record, senderName string, mentioned map[string]bool, now time.Time) {
	if !app.Settings().SMTP.Enabled || len(targets) == 0 {
		return
	}
	direct := channel.GetBool("direct")
	name := channel.GetString("name")
	if direct {
		name = ""
	}
	meta := app.Settings().Meta
	for _, id := range targets {
		user, err := app.FindRecordById("users", id)
		if err != nil || !user.GetBool("email_notifications_enabled") || !user.Verified() || user.Email() == "" {
			continue
		}
		if !m.due(id, channel.Id, now) {
			continue
		}
		link := notificationLink(app.Settings().Meta.AppURL, channel.Id, message.Id, message.GetString("thread"))
		composed := composeNotification(notificationAbout{Sender: senderName, Channel: name, Direct: direct, Mention: mentioned[id], Link: link})
		err = app.NewMailClient().Send(&mailer.Message{
			From:    mail.Address{Name: meta.SenderName, Address: meta.SenderAddress},
			To:      []mail.Address{{Address: user.Email()}},
			Subject: composed.Subject,
			HTML:    composed.HTML,
			Text:    composed.Text,
		})
		if err != nil {
			app.Logger().Error("Email notification failed", "user", id, "error", err.Error())
		}
	}
}
