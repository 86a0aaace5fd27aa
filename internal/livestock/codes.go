package livestock

// Code is a stable error code. Codes never change meaning once published;
// the OpenAPI document lists every one (a test holds the two together).
//
// The letters follow the live service: S for schema and format problems
// found before any look-up, V for validation against the registry's data.
// Drover adds A for authentication and permission, and R for limits and
// availability of the service itself.
type Code string

// CodeInfo describes a code for the OpenAPI document and the docs.
type CodeInfo struct {
	Code  Code
	Kind  Kind
	Title string
}

const (
	CodeMissing         Code = "S002" // a required field or parameter is missing
	CodeWrongType       Code = "S003" // a value has the wrong JSON type
	CodeUnknownField    Code = "S004" // a property the schema does not allow
	CodeMalformedJSON   Code = "S005" // the body is not JSON
	CodeBadEnum         Code = "S006" // a value outside its list of allowed values
	CodeBadLength       Code = "S007" // a value too long or too short
	CodeBadFormat       Code = "S008" // a value that does not match its format
	CodeBadQuery        Code = "S009" // a query parameter that cannot be used
	CodeBadPath         Code = "S010" // a path that cannot be decoded
	CodeTooLarge        Code = "S011" // the body is over the size limit
	CodeUnsupportedType Code = "S012" // a Content-Type the endpoint does not take
	CodeSchema          Code = "S013" // any other rule of the OpenAPI schema

	CodeUnauthenticated Code = "A001" // no token, or one that cannot be trusted
	CodeForbidden       Code = "A002" // the user may not act for that holding
	CodeUnknownUser     Code = "A003" // a valid token for a subject with no user record
	CodeBadGrant        Code = "A004" // the token endpoint refused the grant

	CodeNotFound    Code = "R001" // no such resource
	CodeRateLimited Code = "R002" // over the per-user rate limit
	CodeOverloaded  Code = "R003" // too many requests in flight
	CodeUnavailable Code = "R004" // the database or another dependency is down
	CodeTimeout     Code = "R005" // the request took longer than allowed
	CodeInternal    Code = "R006" // a fault of ours
	CodeNoRoute     Code = "R007" // no such endpoint
	CodeNoMethod    Code = "R008" // the endpoint exists but not with this method
)

// Codes lists every code with its kind and title, in code order.
var Codes = []CodeInfo{
	{CodeMissing, KindInvalid, "A required field or parameter is missing"},
	{CodeWrongType, KindInvalid, "A value has the wrong type"},
	{CodeUnknownField, KindInvalid, "A property is not allowed here"},
	{CodeMalformedJSON, KindInvalid, "The body is not well-formed JSON"},
	{CodeBadEnum, KindInvalid, "A value is not one of those allowed"},
	{CodeBadLength, KindInvalid, "A value is too long or too short"},
	{CodeBadFormat, KindInvalid, "A value does not match its format"},
	{CodeBadQuery, KindInvalid, "A query parameter cannot be used"},
	{CodeBadPath, KindInvalid, "The path cannot be decoded"},
	{CodeTooLarge, KindTooLarge, "The body is over the size limit"},
	{CodeUnsupportedType, KindInvalid, "The Content-Type is not accepted"},
	{CodeSchema, KindInvalid, "The request breaks a rule of the OpenAPI document"},
	{CodeUnauthenticated, KindUnauthenticated, "No valid bearer token"},
	{CodeForbidden, KindForbidden, "Not permitted for this user"},
	{CodeUnknownUser, KindUnauthenticated, "The token's subject is not a registered user"},
	{CodeBadGrant, KindInvalid, "The token request was refused"},
	{CodeNotFound, KindNotFound, "No such resource"},
	{CodeRateLimited, KindTooMany, "Too many requests for this user"},
	{CodeOverloaded, KindUnavailable, "The service is overloaded"},
	{CodeUnavailable, KindUnavailable, "The service is temporarily unavailable"},
	{CodeTimeout, KindUnavailable, "The request timed out inside the service"},
	{CodeInternal, KindInternal, "An internal fault"},
	{CodeNoRoute, KindNotFound, "No such endpoint"},
	{CodeNoMethod, KindMethodNotAllowed, "Method not allowed on this endpoint"},
}
