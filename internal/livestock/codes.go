package livestock

// Code is a stable error code. Codes never change meaning once published;
// on the movements interface's wire most are shown as the live service's
// numeric code for the same rule (LiveCode);
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
	CodeMalformedJSON   Code = "S005" // the body is not JSON, or not I-JSON
	CodeBadEnum         Code = "S006" // a value outside its list of allowed values
	CodeBadLength       Code = "S007" // a value too long or too short
	CodeBadFormat       Code = "S008" // a value that does not match its format
	CodeBadQuery        Code = "S009" // a query parameter that cannot be used
	CodeBadPath         Code = "S010" // a path that cannot be decoded
	CodeTooLarge        Code = "S011" // the body is over the size limit
	CodeUnsupportedType Code = "S012" // a Content-Type (or Content-Encoding) the endpoint does not take
	CodeSchema          Code = "S013" // any other rule of the OpenAPI schema

	CodeUnauthenticated Code = "A001" // no token, or one that cannot be trusted
	CodeForbidden       Code = "A002" // the user may not act for that holding
	CodeUnknownUser     Code = "A003" // a valid token for a subject with no user record
	CodeBadGrant        Code = "A004" // the token endpoint refused the grant
	CodeNotSubmitter    Code = "A005" // only the user who submitted a request may undo or correct it

	CodeNotFound    Code = "R001" // no such resource
	CodeRateLimited Code = "R002" // over the per-user rate limit
	CodeOverloaded  Code = "R003" // too many requests in flight
	CodeUnavailable Code = "R004" // the database or another dependency is down
	CodeTimeout     Code = "R005" // the request took longer than allowed
	CodeInternal    Code = "R006" // a fault of ours
	CodeNoRoute     Code = "R007" // no such endpoint
	CodeNoMethod    Code = "R008" // the endpoint exists but not with this method

	// Movements: found when the request is received (400 or 403 at once).
	CodeNoEnvelope     Code = "S014" // the body is not wrapped in {"content": …}
	CodeDuplicateTrack Code = "V001" // the trackingId was used before by this user for this type of request
	CodeUserHolding    Code = "V002" // userHolding is neither the source nor the destination
	CodeReplayMismatch Code = "V004" // a correlation id replayed with a different request
	CodeFilterField    Code = "S015" // $filter names a field that cannot be filtered
	CodeFilterSyntax   Code = "S016" // $filter cannot be parsed
	CodePageTooLarge   Code = "S017" // $top above the largest page

	// Movements: found by the background job (the request ends Fail).
	CodeHoldingUnknown    Code = "V010" // a holding (CPH or MHS) is not registered
	CodeHoldingType       Code = "V011" // the holding's type does not fit its role in the move
	CodeSameHolding       Code = "V012" // source and destination are the same holding
	CodeDeviceUnknown     Code = "V013" // no animal wears this tag
	CodeDeviceNotOnSource Code = "V014" // the animal is not on the source holding on the transfer date
	CodeDeviceSpecies     Code = "V015" // the animal is not of the stated species
	CodeDeviceInTransit   Code = "V016" // the animal is in a movement that awaits review
	CodeDeviceRepeated    Code = "V017" // the same tag appears twice in one request
	CodeAnimalCount       Code = "V018" // animalCount differs from devices plus batch totals
	CodeDateFuture        Code = "V019" // a date is in the future
	CodeDateBeforeBirth   Code = "V020" // the transfer date is before the animal was born
	CodeArrivalBefore     Code = "V021" // the arrival date is before the transfer date
	CodeBatchSpecies      Code = "V022" // the batch's flock is of another species
	CodeFlagUnknown       Code = "V023" // a processingFlags code is not in standing data
	CodeTargetUnknown     Code = "V024" // the request to correct, review or undo does not exist
	CodeNotReviewable     Code = "V025" // the movement does not await this holding's review
	CodeReviewDevice      Code = "V026" // a reviewed tag or batch is not in the movement
	CodeReviewTotal       Code = "V027" // animalTotal differs from what the review accepts
	CodeNotCorrectable    Code = "V028" // the transfer can no longer be corrected
	CodeNotUndoable       Code = "V029" // the request cannot be undone
	CodeDeviceDead        Code = "V030" // the animal is dead, lost or stolen

	// Registration (animal-registration.md). V006 and V038 keep the live
	// service's meanings.
	CodeDamSpecies         Code = "V006" // the birth or genetic dam is of another species
	CodeBirthSiteUnknown   Code = "V038" // the birth site is not known
	CodeNotIssued          Code = "V031" // the identifier was not issued to a herd at the registration site
	CodeRegistered         Code = "V032" // the identifier is registered already
	CodeBreedUnknown       Code = "V033" // the breed code is not in standing data for the species
	CodeSiteUnknown        Code = "V034" // a registration or death site is not known
	CodeDateOrder          Code = "V035" // birth ≤ identification ≤ registration ≤ today does not hold
	CodeBirthYear          Code = "V036" // birth.year disagrees with birth.date
	CodeDeathBeforeBirth   Code = "V037" // the death date is before the birth date
	CodeBornElsewhere      Code = "V039" // a birth registration of an animal born on another holding
	CodeDamUnknown         Code = "V040" // the birth dam is not registered
	CodeDamNotFemale       Code = "V041" // the birth or genetic dam is not female
	CodeDamNotAlive        Code = "V042" // the birth dam is dead, lost or stolen
	CodeDamElsewhere       Code = "V043" // the birth dam is not on the registration holding
	CodeSireInvalid        Code = "V044" // the sire is the animal itself, or a registered sire is not male, of the species, born before it
	CodeImportOnly         Code = "V045" // OriginalIdentifier or importParents outside a registration of category registration
	CodeDamRequired        Code = "V046" // a birth registration without a birth dam
	CodeRegistrationHolder Code = "V047" // the registration site is not a holding (CPH) the keeper acts for
	CodeDamTooYoung        Code = "V048" // the birth or genetic dam was not born before the calf (or is the calf)
	CodeBornHere           Code = "V049" // category registration for an animal born on the registering holding

	// Warnings: the request succeeds and records them.
	CodeStandstill  Code = "W001" // the move breaches the standstill on the source holding
	CodeLateReport  Code = "W002" // reported after the 3-day deadline
	CodeLateBirth   Code = "W003" // registered after the statutory limit: no passport, may not move
	CodePollTooSoon Code = "R009" // a request status polled before its retry-after time
)

// ApprovedMovements/ByTransferDateRange: its parameters, checked at once
// (400). Each is one rule of the live catalogue, whose numeric code is
// given beside it.
const (
	CodeRangeHolding   Code = "V060" // live 31200: a holding is not a valid, registered CPH or MHS
	CodeRangeDates     Code = "V061" // live 31230: startTransferDate and endTransferDate are both required
	CodeRangeOrder     Code = "V062" // live 31231: startTransferDate must be before endTransferDate
	CodeRangeFuture    Code = "V063" // live 31232: startTransferDate cannot be in the future
	CodeRangeTooLong   Code = "V064" // live 31233: the range must be less than a year
	CodeRangeNoHolding Code = "V065" // live 31234: departureHolding or destinationHolding is required
	CodeRangeSpeciesID Code = "V066" // live 31235: speciesId is not a species of the movements interface
)

// Codes added for issue 20: a review must name the version of the
// movement it saw, and a request stores a bounded number of errors.
const (
	CodeReviewStale   Code = "V067" // live 21373: the review names a request that has been corrected since
	CodeTooManyErrors Code = "V068" // live 40: more errors than a request stores; the rest are not listed
	CodeReportedAgain Code = "W004" // live 4023: the move was reported already from its other end; nothing applied again
)

// Codes of movements of cattle, which the live definition carries: a
// bovine moves by its ear tag alone, and one registered late may not move.
const (
	CodeNotForCattle     Code = "V069" // live 31000: a batch, movement document, device application or rfid in a movement of cattle
	CodeDeviceRestricted Code = "V070" // live 22039: the animal may not leave its holding (registered late, no passport)
)

// Codes of an animal's birth period (beginBirthPeriod, endBirthPeriod),
// each its own rule in the live catalogue.
const (
	CodeBirthOrder Code = "V071" // live 8004: the period ends before it begins
	CodeBirthSpan  Code = "V072" // live 8022: the period is longer than 31 days
)

// Codes of a review that rejects a movement and yet says what it accepts.
const (
	CodeRejectAccepts Code = "V073" // live 21375: a rejection names accepted devices or batches
	CodeRejectTotal   Code = "V074" // live 21504: a rejection gives an animalTotal other than 0
)

// CodeDocumentTimes: a movement document's times out of order (loaded
// after the departure, arrived before it, unloaded before the arrival);
// the live catalogue has a code for each, by field (fieldCodes).
const CodeDocumentTimes Code = "V075"

// CodeSaleOnly: saleDate, saleId or a group's vendorHolding in a transfer
// that is not a sale yard recording a move off itself.
const CodeSaleOnly Code = "V076"

// Codes of corrections and undos that would leave the register untrue.
const (
	CodeCorrectionChanges Code = "V077" // live 4077: a correction changes the species, the reporting holding or its side
	CodeMovedLater        Code = "V078" // live 14121: an animal of the movement has moved in a later request
	CodeUndoneAlready     Code = "V079" // live 14012: the request is undone already
	CodeJourneyLong       Code = "V080" // live 21502: the arrival is more than MaxJourneyDays after the transfer date
	CodeReviewedAlready   Code = "V081" // live 21389: the movement has been reviewed already, from the same holding
	CodeBatchLineTwice    Code = "V082" // live 21378: a review names one batch line twice
	CodeReportedByBoth    Code = "V083" // live 14104: the other end's keeper reported the move too
	CodeReviewedSince     Code = "V084" // live 14104: the movement was reviewed since; its reviewer undoes the review first
)

// CodeBirthAfterApplication: a device application's birth period ends
// after the day the tags were applied (live 8025 for its beginning, 8040
// for its end, by field).
const CodeBirthAfterApplication Code = "V085"

// Codes lists every code with its kind and title, in code order.
var Codes = []CodeInfo{
	{CodeMissing, KindInvalid, "A required field or parameter is missing"},
	{CodeWrongType, KindInvalid, "A value has the wrong type"},
	{CodeUnknownField, KindInvalid, "A property is not allowed here"},
	{CodeMalformedJSON, KindInvalid, "The body is not well-formed JSON (or not I-JSON: a name twice in an object, a lone surrogate escape)"},
	{CodeBadEnum, KindInvalid, "A value is not one of those allowed"},
	{CodeBadLength, KindInvalid, "A value is too long or too short"},
	{CodeBadFormat, KindInvalid, "A value does not match its format"},
	{CodeBadQuery, KindInvalid, "A query parameter cannot be used"},
	{CodeBadPath, KindInvalid, "The path cannot be decoded"},
	{CodeTooLarge, KindTooLarge, "The body is over the size limit"},
	{CodeUnsupportedType, KindInvalid, "The Content-Type or Content-Encoding is not accepted"},
	{CodeSchema, KindInvalid, "The request breaks a rule of the OpenAPI document"},
	{CodeUnauthenticated, KindUnauthenticated, "No valid bearer token"},
	{CodeForbidden, KindForbidden, "Not permitted for this user"},
	{CodeUnknownUser, KindUnauthenticated, "The token's subject is not a registered user"},
	{CodeBadGrant, KindInvalid, "The token request was refused"},
	{CodeNotSubmitter, KindForbidden, "Only the user who submitted a request may undo or correct it"},
	{CodeNotFound, KindNotFound, "No such resource"},
	{CodeRateLimited, KindTooMany, "Too many requests for this user"},
	{CodeOverloaded, KindUnavailable, "The service is overloaded"},
	{CodeUnavailable, KindUnavailable, "The service is temporarily unavailable"},
	{CodeTimeout, KindUnavailable, "The request timed out inside the service"},
	{CodeInternal, KindInternal, "An internal fault"},
	{CodeNoRoute, KindNotFound, "No such endpoint"},
	{CodeNoMethod, KindMethodNotAllowed, "Method not allowed on this endpoint"},
	{CodeNoEnvelope, KindInvalid, "The body must be wrapped in {\"content\": …}"},
	{CodeFilterField, KindInvalid, "$filter names a field that cannot be filtered on"},
	{CodeFilterSyntax, KindInvalid, "$filter cannot be parsed"},
	{CodePageTooLarge, KindInvalid, "$top is above the largest results page"},
	{CodeDuplicateTrack, KindInvalid, "The trackingId was used before by this user for this type of request"},
	{CodeUserHolding, KindInvalid, "userHolding is neither the source nor the destination"},
	{CodeReplayMismatch, KindInvalid, "The correlation id was used before for a different request"},
	{CodeHoldingUnknown, KindInvalid, "The holding is not registered"},
	{CodeHoldingType, KindInvalid, "The holding's type does not fit its role in the move"},
	{CodeSameHolding, KindInvalid, "Source and destination are the same holding"},
	{CodeDeviceUnknown, KindInvalid, "No animal wears this tag"},
	{CodeDeviceNotOnSource, KindInvalid, "The animal is not on the source holding on the transfer date"},
	{CodeDeviceSpecies, KindInvalid, "The animal is not of the stated species"},
	{CodeDeviceInTransit, KindInvalid, "The animal is in a movement awaiting review"},
	{CodeDeviceRepeated, KindInvalid, "The same tag appears twice"},
	{CodeAnimalCount, KindInvalid, "animalCount differs from the devices plus the batch totals"},
	{CodeDateFuture, KindInvalid, "The date is in the future"},
	{CodeDateBeforeBirth, KindInvalid, "The transfer date is before the animal was born"},
	{CodeArrivalBefore, KindInvalid, "The arrival date is before the transfer date"},
	{CodeBatchSpecies, KindInvalid, "The batch's flock is of another species"},
	{CodeFlagUnknown, KindInvalid, "The processing flag is not a known exemption code"},
	{CodeTargetUnknown, KindInvalid, "The request named does not exist"},
	{CodeNotReviewable, KindInvalid, "The movement does not await this holding's review"},
	{CodeReviewDevice, KindInvalid, "The tag or batch is not in the movement"},
	{CodeReviewTotal, KindInvalid, "animalTotal differs from what the review accepts"},
	{CodeNotCorrectable, KindInvalid, "The transfer can no longer be corrected"},
	{CodeNotUndoable, KindInvalid, "The request cannot be undone"},
	{CodeDeviceDead, KindInvalid, "The animal is dead, lost or stolen"},
	{CodeDamSpecies, KindInvalid, "The birth or genetic dam is of another species"},
	{CodeBirthSiteUnknown, KindInvalid, "The birth site is not known"},
	{CodeNotIssued, KindInvalid, "The identifier was not issued to a herd at the registration site"},
	{CodeRegistered, KindInvalid, "The identifier is registered already"},
	{CodeBreedUnknown, KindInvalid, "The breed code is not known for the species"},
	{CodeSiteUnknown, KindInvalid, "The site is not known"},
	{CodeDateOrder, KindInvalid, "Dates must run birth, identification, registration, today"},
	{CodeBirthYear, KindInvalid, "birth.year disagrees with birth.date"},
	{CodeDeathBeforeBirth, KindInvalid, "The death date is before the birth date"},
	{CodeBornElsewhere, KindInvalid, "A birth registration must be made on the holding of birth"},
	{CodeDamUnknown, KindInvalid, "The birth dam is not registered"},
	{CodeDamNotFemale, KindInvalid, "The birth or genetic dam is not female"},
	{CodeDamNotAlive, KindInvalid, "The birth dam is dead, lost or stolen"},
	{CodeDamElsewhere, KindInvalid, "The birth dam is not on the registration holding"},
	{CodeSireInvalid, KindInvalid, "The sire is not a male of the same species born before the animal"},
	{CodeImportOnly, KindInvalid, "OriginalIdentifier and importParents belong to category registration"},
	{CodeDamRequired, KindInvalid, "A birth registration needs a birth dam"},
	{CodeRegistrationHolder, KindInvalid, "The registration site must be a holding number the user acts for"},
	{CodeDamTooYoung, KindInvalid, "The birth or genetic dam was not born before the calf"},
	{CodeBornHere, KindInvalid, "A calf born on the registering holding is registered as birthRegistration"},
	{CodeStandstill, KindInvalid, "Warning: the move breaches the standstill on the source holding"},
	{CodeLateReport, KindInvalid, "Warning: the move was reported after the 3-day deadline"},
	{CodeLateBirth, KindInvalid, "Warning: registered after the statutory limit; no passport, the animal may not move"},
	{CodePollTooSoon, KindTooMany, "The request status was polled before its retry-after time"},
	{CodeRangeHolding, KindInvalid, "The holding is not a valid, registered CPH or MHS"},
	{CodeRangeDates, KindInvalid, "Both startTransferDate and endTransferDate must be given"},
	{CodeRangeOrder, KindInvalid, "startTransferDate must be before endTransferDate"},
	{CodeRangeFuture, KindInvalid, "startTransferDate cannot be in the future"},
	{CodeRangeTooLong, KindInvalid, "The date range must be less than a year"},
	{CodeRangeNoHolding, KindInvalid, "Either departureHolding or destinationHolding must be given"},
	{CodeRangeSpeciesID, KindInvalid, "speciesId is not a species of the movements interface"},
	{CodeReviewStale, KindInvalid, "The movement has been corrected since the request named; review it by the correction's requestId"},
	{CodeTooManyErrors, KindInvalid, "Too many errors: those after the first ones are not listed"},
	{CodeReportedAgain, KindInvalid, "Warning: the move was reported already from its other end; this report applied nothing again"},
	{CodeNotForCattle, KindInvalid, "A movement of cattle has no batches, movement document, device application or rfid"},
	{CodeDeviceRestricted, KindInvalid, "The animal may not leave its holding: registered after the statutory limit, it has no passport"},
	{CodeBirthOrder, KindInvalid, "The birth period ends before it begins"},
	{CodeBirthSpan, KindInvalid, "The birth period is longer than 31 days"},
	{CodeRejectAccepts, KindInvalid, "A review that rejects the movement names accepted devices or batches"},
	{CodeRejectTotal, KindInvalid, "A review that rejects the movement gives an animalTotal other than 0"},
	{CodeDocumentTimes, KindInvalid, "The movement document's times are out of order"},
	{CodeSaleOnly, KindInvalid, "Only a sale yard recording a move off itself gives saleDate, saleId or vendorHolding"},
	{CodeCorrectionChanges, KindInvalid, "A correction keeps the species, the reporting holding and its side of the move"},
	{CodeMovedLater, KindInvalid, "An animal of the movement has moved in a later request"},
	{CodeUndoneAlready, KindInvalid, "The request is undone already"},
	{CodeJourneyLong, KindInvalid, "The arrival is more than a day after the transfer date"},
	{CodeReviewedAlready, KindInvalid, "The movement has been reviewed already"},
	{CodeBatchLineTwice, KindInvalid, "A review names one batch line twice"},
	{CodeReportedByBoth, KindInvalid, "The other end's keeper reported the move too"},
	{CodeReviewedSince, KindInvalid, "The movement has been reviewed since: its reviewer undoes the review first"},
	{CodeBirthAfterApplication, KindInvalid, "The birth period is after the day the tags were applied"},
}
