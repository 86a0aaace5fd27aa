// Package api is Drover's HTTP layer: every route (routes.go), the
// middleware chain in its one order (middleware_*.go), the error body
// (problem.go), and one file per resource. Handlers return an error; one
// adapter (handler.go) turns it into an application/problem+json body.
//
// The OpenAPI document in package openapi is the contract: requests are
// validated against it before a handler runs, and a test holds the router
// and the document to the same set of operations.
package api
