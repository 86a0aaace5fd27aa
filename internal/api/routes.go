package api

import (
	"net/http"
	"slices"
	"strings"

	"github.com/go-chi/chi/v5"
	"github.com/go-chi/chi/v5/middleware"

	"github.com/drover-registry/drover/internal/livestock"
)

// routes registers every route of the service, in one place. Each route
// here has an operation in the OpenAPI document, and the reverse; a test
// holds the two together.
func (s *Server) routes() chi.Router {
	r := chi.NewRouter()
	// The chain, outermost first; middleware.go says what each step does.
	r.Use(s.recoverPanics, correlate, s.canonicalPath, s.versionAlias, middleware.GetHead, s.observe, s.deadline, s.limitBody)
	r.NotFound(func(w http.ResponseWriter, r *http.Request) {
		writeProblemFor(w, r, &livestock.Error{Kind: livestock.KindNotFound, Detail: "no such endpoint",
			Fields: []livestock.FieldError{{Code: livestock.CodeNoRoute, Message: "no endpoint at this path; see /openapi.json", Source: "path", Value: r.URL.Path}}})
	})
	r.MethodNotAllowed(func(w http.ResponseWriter, req *http.Request) {
		allowed := allowedMethods(r, req)
		w.Header().Set("Allow", strings.Join(allowed, ", ")) // RFC 9110 §15.5.6: a 405 says what is allowed
		writeProblemFor(w, req, &livestock.Error{Kind: livestock.KindMethodNotAllowed, Detail: "method not allowed",
			Fields: []livestock.FieldError{{Code: livestock.CodeNoMethod, Source: "method", Value: req.Method,
				Message: req.Method + " is not allowed on this endpoint; it allows " + strings.Join(allowed, ", ")}}})
	})

	// Operations: no token, like the health checks.
	r.Get("/healthz", s.handle(s.healthz))
	r.Get("/readyz", s.handle(s.readyz))
	r.Get("/metrics", s.metrics.handler().ServeHTTP)
	r.Get("/openapi.json", s.handle(s.openapiJSON))
	r.Get("/docs", s.docs)
	r.Get("/docs/{file}", s.docs)

	// The sandbox's own OpenID Connect issuer: under the same admission
	// control as /v1 (a sign-in costs a password check, the dearest thing
	// the service does), then limited per client address.
	if s.issuer != nil {
		r.Group(func(r chi.Router) {
			r.Use(s.admit, s.rateLimit)
			r.Get("/.well-known/openid-configuration", s.handle(s.issuer.Discovery))
			r.Get("/oauth2/jwks", s.handle(s.issuer.JWKS))
			r.Post("/oauth2/token", s.handleWith(s.issuer.Token, oauthError))
			r.Get("/oauth2/authorize", s.handleWith(s.issuer.AuthorizeForm, oauthError))
			r.Post("/oauth2/authorize", s.handleWith(s.issuer.Authorize, oauthError))
		})
	}

	// The registry: user-restricted.
	r.Group(func(r chi.Router) {
		r.Use(s.odataVersion, s.admit, s.authenticate, noStore, s.rateLimit)
		r.Get("/v1/me", s.handle(s.me))
		r.Get("/v1/$metadata", s.handle(s.odataMetadata))
		r.Get("/v1/StandingData", s.handle(s.standingLists))
		r.Get("/v1/StandingData/{list}", s.handle(s.standingList))

		// Livestock movements v1.0: four request collections …
		for typ, name := range collectionNames {
			r.Get("/v1/"+name, s.handle(s.listRequests(typ)))
			r.Get("/v1/"+name+"/$count", s.handle(s.countRequests(typ)))
			r.With(s.gateQueue(always)).Post("/v1/"+name, s.handle(s.submitRequest(typ)))
			r.Get("/v1/"+name+"({requestId})", s.handle(s.getRequest(typ)))
		}
		// … holding validation, and movements awaiting review (both forms;
		// key values bare, as the live template, or quoted: unquoteKeys).
		r.Post("/v1/Holdings/ValidHoldings", s.handle(s.validHoldings))
		r.With(s.unquoteKeys, nullEmpty("holding")).Get("/v1/HoldingMovementForReviews(species={species},holding={holding})", s.handle(s.awaitingReview))
		r.With(s.unquoteKeys, nullEmpty("holding")).Get("/v1/HoldingMovementForReviews/ReviewBySpecies(species={species},holding={holding})", s.handle(s.awaitingReview))
		// … approved movements: each end's record of a movement applied.
		r.Get("/v1/ApprovedMovements", s.handle(s.listApproved))
		r.Get("/v1/ApprovedMovements({id},{recordedBy})", s.handle(s.getApproved))
		r.With(nullEmptyParams).Get("/v1/ApprovedMovements/ByTransferDateRange(speciesId={speciesId},startTransferDate={startTransferDate},"+
			"endTransferDate={endTransferDate},departureHolding={departureHolding},destinationHolding={destinationHolding})", s.handle(s.approvedByRange))
		// OData's service document: the entity sets, at the service root.
		r.Get("/v1/", s.handle(s.serviceDocument))

		// Animal registration.
		r.With(s.gateQueue(asyncMode)).Post("/v1/animals", s.handleRegistration(s.registerAnimal))
		r.Get("/v1/requeststatus/{requestId}", s.handleRegistration(s.requestStatus))
		r.Get("/v1/animals/{identifier}", s.handleRegistration(s.getAnimal))
		// … and the reference lists it names values from.
		r.Get("/v1/breeds", s.handleRegistration(s.breeds))
		r.Get("/v1/deathreasons", s.handleRegistration(s.deathReasons))
		r.Get("/v1/genotypes", s.handleRegistration(s.genotypes))
		r.Get("/v1/rejectionreasons", s.handleRegistration(s.rejectionReasons))
		r.Get("/v1/hauliers", s.handleRegistration(s.hauliers))

		// Outbreak tracing (Drover's own): an animal's life, a holding's
		// register, and traces for the inspector.
		r.Get("/v1/animals/{identifier}/history", s.handle(s.animalHistory))
		r.Get("/v1/holdings/{holding}/animals", s.handle(s.holdingAnimals))
		r.Get("/v1/holdings/{holding}/movements", s.handle(s.holdingMovements))
		r.Post("/v1/traces", s.handle(s.createTrace))
	})
	return r
}

// allowedMethods are the methods router routes for req's path, for a
// 405's Allow header: chi knows them but hands them only to its own 405
// handler.
func allowedMethods(router chi.Routes, req *http.Request) []string {
	path := req.URL.RawPath
	if rctx := chi.RouteContext(req.Context()); rctx != nil && rctx.RoutePath != "" {
		path = rctx.RoutePath
	}
	if path == "" {
		path = req.URL.Path
	}
	var allowed []string
	for _, m := range []string{http.MethodGet, http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete} {
		if router.Match(chi.NewRouteContext(), m, path) {
			allowed = append(allowed, m)
		}
	}
	if slices.Contains(allowed, http.MethodGet) {
		allowed = slices.Insert(allowed, 1, http.MethodHead) // GetHead serves it (routes)
	}
	return allowed
}
