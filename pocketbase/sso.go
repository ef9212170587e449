// The protocol side of single sign-on with an OpenID Connect provider, for the hooks as $sso
// (pb_hooks/sso.pb.js, docs/decisions/0063-single-sign-on.md): discovery, the authorization URL
// with PKCE (S256) and a nonce, the code exchange with the ID token's signature, issuer, audience,
// expiry and nonce checked (coreos/go-oidc), the userinfo claims, and the refresh that tells whether
// the provider still knows the account (pb_hooks/lib/sso_leavers.js).
package main

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"sync"
	"time"

	"github.com/coreos/go-oidc/v3/oidc"
	"github.com/dop251/goja"
	"golang.org/x/oauth2"
)

const ssoTimeout = 10 * time.Second

// ssoSettings: what the hooks pass in (lib/sso_settings.js).
type ssoSettings struct {
	Issuer       string `json:"issuer"`
	ClientID     string `json:"clientId"`
	ClientSecret string `json:"clientSecret"`
	RedirectURL  string `json:"redirectUrl"`
}

type cachedProvider struct {
	provider *oidc.Provider
	offline  bool // the provider lists the offline_access scope
	at       time.Time
}

var (
	ssoProvidersMu sync.Mutex
	ssoProviders   = map[string]cachedProvider{}
	ssoHTTP        = &http.Client{Timeout: ssoTimeout}
)

// ssoProvider: the issuer's discovery document, kept for ten minutes.
func ssoProvider(ctx context.Context, issuer string) (cachedProvider, error) {
	ssoProvidersMu.Lock()
	cached, ok := ssoProviders[issuer]
	ssoProvidersMu.Unlock()
	if ok && time.Since(cached.at) < 10*time.Minute {
		return cached, nil
	}
	provider, err := oidc.NewProvider(ctx, issuer)
	if err != nil {
		return cachedProvider{}, fmt.Errorf("the identity provider's discovery failed: %w", err)
	}
	var discovery struct {
		Scopes []string `json:"scopes_supported"`
	}
	_ = provider.Claims(&discovery)
	cached = cachedProvider{provider: provider, offline: slices.Contains(discovery.Scopes, oidc.ScopeOfflineAccess), at: time.Now()}
	ssoProvidersMu.Lock()
	ssoProviders[issuer] = cached
	ssoProvidersMu.Unlock()
	return cached, nil
}

func ssoContext() (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithTimeout(context.Background(), ssoTimeout)
	return oidc.ClientContext(ctx, ssoHTTP), cancel
}

func (s ssoSettings) oauth(p cachedProvider) *oauth2.Config {
	scopes := []string{oidc.ScopeOpenID, "email", "profile"}
	if p.offline {
		scopes = append(scopes, oidc.ScopeOfflineAccess)
	}
	return &oauth2.Config{ClientID: s.ClientID, ClientSecret: s.ClientSecret, Endpoint: p.provider.Endpoint(), RedirectURL: s.RedirectURL, Scopes: scopes}
}

func randomToken() string {
	b := make([]byte, 32)
	_, _ = rand.Read(b)
	return base64.RawURLEncoding.EncodeToString(b)
}

// ssoBegin: where to send the browser, and the state, PKCE verifier and nonce to keep until it returns.
func ssoBegin(s ssoSettings) (map[string]any, error) {
	ctx, cancel := ssoContext()
	defer cancel()
	p, err := ssoProvider(ctx, s.Issuer)
	if err != nil {
		return nil, err
	}
	state, nonce, verifier := randomToken(), randomToken(), oauth2.GenerateVerifier()
	options := []oauth2.AuthCodeOption{oauth2.S256ChallengeOption(verifier), oidc.Nonce(nonce)}
	if !p.offline {
		// Google's way of asking for a refresh token
		options = append(options, oauth2.AccessTypeOffline)
	}
	url := s.oauth(p).AuthCodeURL(state, options...)
	return map[string]any{"url": url, "state": state, "nonce": nonce, "verifier": verifier}, nil
}

// ssoFinish exchanges the code: the verified ID token's claims with the userinfo claims added, and
// the refresh token ("" when the provider gave none).
func ssoFinish(s ssoSettings, code, verifier, nonce string) (map[string]any, error) {
	ctx, cancel := ssoContext()
	defer cancel()
	p, err := ssoProvider(ctx, s.Issuer)
	if err != nil {
		return nil, err
	}
	config := s.oauth(p)
	token, err := config.Exchange(ctx, code, oauth2.VerifierOption(verifier))
	if err != nil {
		return nil, fmt.Errorf("the identity provider refused the code: %w", err)
	}
	raw, _ := token.Extra("id_token").(string)
	if raw == "" {
		return nil, errors.New("the identity provider sent no ID token")
	}
	idToken, err := p.provider.Verifier(&oidc.Config{ClientID: s.ClientID}).Verify(ctx, raw)
	if err != nil {
		return nil, fmt.Errorf("the ID token does not hold: %w", err)
	}
	if idToken.Nonce != nonce {
		return nil, errors.New("the ID token's nonce is not this sign-in's")
	}
	claims := map[string]any{}
	if info, err := p.provider.UserInfo(ctx, config.TokenSource(ctx, token)); err == nil && info.Subject == idToken.Subject {
		_ = info.Claims(&claims)
	}
	var fromToken map[string]any
	if err := idToken.Claims(&fromToken); err != nil {
		return nil, err
	}
	for name, value := range fromToken {
		claims[name] = value // the signed token's word wins
	}
	return map[string]any{"claims": claims, "refreshToken": token.RefreshToken, "issuer": idToken.Issuer, "subject": idToken.Subject}, nil
}

// ssoRefresh asks the provider for new tokens: status "ok" (with the refresh token to keep), "gone"
// (the provider refuses the refresh token as invalid_grant: the account was disabled, removed or
// signed out there, or the token was another client's: sso_leavers.js tells them apart) or
// "unreachable" (anything else: nothing is concluded).
func ssoRefresh(s ssoSettings, refreshToken string) map[string]any {
	ctx, cancel := ssoContext()
	defer cancel()
	p, err := ssoProvider(ctx, s.Issuer)
	if err != nil {
		return map[string]any{"status": "unreachable", "error": err.Error()}
	}
	token, err := s.oauth(p).TokenSource(ctx, &oauth2.Token{RefreshToken: refreshToken, Expiry: time.Unix(1, 0)}).Token()
	var refused *oauth2.RetrieveError
	switch {
	// (only invalid_grant is about the token, and so the person: invalid_client, unauthorized_client and
	// any other 4xx are about the workspace's own settings, such as a mistyped secret)
	case errors.As(err, &refused) && refused.ErrorCode == "invalid_grant":
		return map[string]any{"status": "gone", "error": refused.ErrorCode}
	case err != nil:
		return map[string]any{"status": "unreachable", "error": err.Error()}
	}
	next := token.RefreshToken
	if next == "" {
		next = refreshToken
	}
	return map[string]any{"status": "ok", "refreshToken": next}
}

// bindSSO sets the global $sso: begin(settings), finish(settings, code, verifier, nonce), refresh(settings, token).
func bindSSO(vm *goja.Runtime) {
	settings := func(v map[string]any) ssoSettings {
		text := func(name string) string { s, _ := v[name].(string); return s }
		return ssoSettings{Issuer: text("issuer"), ClientID: text("clientId"), ClientSecret: text("clientSecret"), RedirectURL: text("redirectUrl")}
	}
	obj := vm.NewObject()
	_ = obj.Set("begin", func(v map[string]any) (map[string]any, error) { return ssoBegin(settings(v)) })
	_ = obj.Set("finish", func(v map[string]any, code, verifier, nonce string) (map[string]any, error) {
		return ssoFinish(settings(v), code, verifier, nonce)
	})
	_ = obj.Set("refresh", func(v map[string]any, token string) map[string]any { return ssoRefresh(settings(v), token) })
	_ = vm.Set("$sso", obj)
}
