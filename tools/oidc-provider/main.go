// Command oidc-provider is an OpenID Connect provider for the tests, on loopback only: discovery,
// authorization code with PKCE, a username/password login form, token (with refresh tokens for the
// offline_access scope), userinfo and JWKS, built on zitadel/oidc's op package and its in-memory
// example storage. A test-only admin API adds people and disables them:
//
//	POST /test-admin/users          {"username","password","email","name"}
//	POST /test-admin/users/disable  {"username"}
//
// A disabled person cannot sign in, and their refresh tokens are refused (invalid_grant).
//
// Settings (flags): -addr 127.0.0.1:PORT, -client-id, -client-secret, -redirect (repeatable). A
// second client, "<client-id>-second", has the same secret and redirect addresses.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"log"
	"log/slog"
	"net"
	"net/http"
	"os"
	"strings"

	"github.com/zitadel/oidc/v3/example/server/exampleop"
	"github.com/zitadel/oidc/v3/example/server/storage"
	"github.com/zitadel/oidc/v3/pkg/op"
)

type redirects []string

func (r *redirects) String() string     { return strings.Join(*r, ",") }
func (r *redirects) Set(v string) error { *r = append(*r, v); return nil }

// guarded is the example storage with the directory's "disabled" applied to refresh grants.
type guarded struct {
	*storage.Storage
	people *users
}

func (g guarded) TokenRequestByRefreshToken(ctx context.Context, token string) (op.RefreshTokenRequest, error) {
	request, err := g.Storage.TokenRequestByRefreshToken(ctx, token)
	if err != nil {
		return nil, err
	}
	if g.people.isDisabled(request.GetSubject()) {
		return nil, errors.New("the account is disabled")
	}
	return request, nil
}

func main() {
	addr := flag.String("addr", "127.0.0.1:5556", "listen address (loopback)")
	clientID := flag.String("client-id", "chatcrypt", "the relying party's client id")
	clientSecret := flag.String("client-secret", "chatcrypt-secret", "the relying party's client secret")
	var redirectURIs redirects
	flag.Var(&redirectURIs, "redirect", "an allowed redirect URI (repeatable)")
	flag.Parse()

	host, _, err := net.SplitHostPort(*addr)
	if err != nil || !net.ParseIP(host).IsLoopback() {
		log.Fatalf("-addr must be a loopback address with a port, got %q", *addr)
	}
	listener, err := net.Listen("tcp", *addr)
	if err != nil {
		log.Fatal(err)
	}
	issuer := fmt.Sprintf("http://%s/", listener.Addr().String())

	// a second client with the same secret and addresses: a workspace that moves to another client of the
	// same provider (its refresh tokens were the first client's)
	storage.RegisterClients(
		storage.WebClient(*clientID, *clientSecret, redirectURIs...),
		storage.WebClient(*clientID+"-second", *clientSecret, redirectURIs...),
	)
	people := newUsers()
	store := guarded{Storage: storage.NewStorage(people), people: people}
	logger := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	router := exampleop.SetupServer(issuer, store, logger, false)

	mux := http.NewServeMux()
	mux.HandleFunc("POST /test-admin/users", func(w http.ResponseWriter, r *http.Request) {
		var body struct{ Username, Password, Email, Name string }
		if json.NewDecoder(r.Body).Decode(&body) != nil || body.Username == "" || body.Password == "" || body.Email == "" {
			http.Error(w, "username, password and email are required", http.StatusBadRequest)
			return
		}
		user := people.put(body.Username, body.Password, body.Email, body.Name)
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]string{"sub": user.ID})
	})
	mux.HandleFunc("POST /test-admin/users/disable", func(w http.ResponseWriter, r *http.Request) {
		var body struct{ Username string }
		if json.NewDecoder(r.Body).Decode(&body) != nil || !people.disable(body.Username) {
			http.Error(w, "no such user", http.StatusNotFound)
			return
		}
		w.WriteHeader(http.StatusNoContent)
	})
	mux.Handle("/", router)

	fmt.Printf("oidc-provider listening: %s\n", issuer)
	log.Fatal(http.Serve(listener, mux))
}
