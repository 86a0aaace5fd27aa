package livestock

import "strings"

// Endpoint names an endpoint of the movements interface as the live error
// catalogue (cla-errors) does: one catalogue per endpoint.
type Endpoint string

const (
	EndpointTransfer      Endpoint = "TransferRequests"
	EndpointCorrection    Endpoint = "CorrectTransferRequests"
	EndpointReview        Endpoint = "ReviewHoldingMovementRequests"
	EndpointUndo          Endpoint = "UndoRequests"
	EndpointReviewLookup  Endpoint = "HoldingMovementForReviews"
	EndpointHoldings      Endpoint = "Holdings"
	EndpointApproved      Endpoint = "ApprovedMovements"
	EndpointOtherMovement Endpoint = "" // the movements interface's other paths ($metadata, standing data)
)

// liveCodes is the one table from a Drover code to the live service's
// numeric code for the same rule. A rule the live catalogue has no code
// for keeps its Drover code (docs/error-codes.md lists both).
var liveCodes = map[Code]string{
	CodeMissing:           "30062", // {0} {1} is required.
	CodeWrongType:         "30059", // {0} {1} is an invalid format.
	CodeUnknownField:      "31000", // The {0} property must not be set.
	CodeBadEnum:           "30060", // {0} {1} contains an invalid value.
	CodeBadLength:         "30061", // {0} {1} exceeds the maximum length of {2} characters.
	CodeBadFormat:         "30059",
	CodeBadQuery:          "31003", // The OData query options are invalid. {0}
	CodeFilterField:       "31003",
	CodeFilterSyntax:      "31003",
	CodePageTooLarge:      "31003",
	CodeNoEnvelope:        "30072", // The request is NULL.
	CodeInternal:          "313",   // A system exception has occurred during the request validation.
	CodeDuplicateTrack:    "25",    // The TrackingID {0} has previous been used …
	CodeUserHolding:       "4037",  // The User Holding is not the same as the Source Holding … or Destination Holding …
	CodeHoldingUnknown:    "30002", // {0} CPH {1} does not exist.
	CodeHoldingType:       "30015", // The {0} CPH {1} cannot be used.
	CodeSameHolding:       "4063",  // The Source and Destination Holding must not be the same.
	CodeDeviceUnknown:     "4053",  // Unable to identify animal {0}.
	CodeDeviceRepeated:    "30022", // … is duplicate with another tag in the tag number list.
	CodeAnimalCount:       "4028",  // Invalid animal count {0}, it must equal the total number of tags {1} and batches {2}.
	CodeFlagUnknown:       "30063", // The {0} property type {1} is invalid.
	CodeNotCorrectable:    "4076",  // Could not edit the movement, due to errors undoing the original movement.
	CodeNotUndoable:       "14005", // The specified request type can not be undone.
	CodeReviewDevice:      "21384", // The ShowDevices or HideDevices contains the tag number {0} which is not on the original movement.
	CodeReviewTotal:       "21503", // … animal total {1} not equal to the accepted number of batches and devices {2}.
	CodeTargetUnknown:     "403",   // Request {0} does not exist in the database.
	CodeArrivalBefore:     "21501", // … arrival date {1} is before the original departure date {2}.
	CodeDeviceNotOnSource: "22039", // Animal {0} {1}: a processing rule about one animal
	CodeDeviceSpecies:     "22039",
	CodeDeviceInTransit:   "22039",
	CodeDateBeforeBirth:   "22039",
	CodeDeviceDead:        "22039",
	CodeTooManyErrors:     "40", // There have been too many validation errors in this one request.
	CodeNotForCattle:      "31000",
	CodeDeviceRestricted:  "22039",
}

// endpointCodes are the rules whose live code differs by endpoint.
var endpointCodes = map[Endpoint]map[Code]string{
	EndpointCorrection: {
		CodeTargetUnknown: "4075", // Movement Request_ID {0} cannot be edited as it does not exist …
		CodeForbidden:     "4038", // Sorry, you are not authorised for User Holding {0}
		CodeInternal:      "4073", // … CorrectTransferRequest:Exception: {0}
	},
	EndpointTransfer: {
		CodeInternal:      "4041", // … TransferConsumer failed with message {0}
		CodeForbidden:     "4038", // Sorry, you are not authorised for User Holding {0}
		CodeReportedAgain: "4023", // This transfer appears to be already in the system
	},
	EndpointReview: {
		CodeTargetUnknown: "21373", // The MovementRequest_ID {0} could not be found.
		// The catalogue has no code for a review of a version since
		// corrected; the old requestId no longer names a movement awaiting
		// review (the look-up shows the correction's), so "could not be
		// found" is the nearest.
		CodeReviewStale:   "21373",
		CodeDeviceUnknown: "21381", // The tag number {0} could not be identified.
		CodeDateFuture:    "21500", // The MovementRequest_ID {0} arrival date {1} is in the future {2}.
		CodeInternal:      "4016",  // … ReviewHoldingMovementConsumer failed with message {0}
		CodeForbidden:     "30003", // You are not authorised to use holding {0} {1}.
	},
	EndpointUndo: {
		CodeNoEnvelope: "14003", // The Undo Request cannot be NULL.
		CodeInternal:   "14163", // … RequestUndoConsumer failed with message {0}
	},
	EndpointApproved: {
		CodeRangeHolding:   "31200", // Holding {0} is not a valid CPH or MHS number
		CodeRangeDates:     "31230", // Both startTransferDate and endTransferDate must be specified
		CodeRangeOrder:     "31231", // startTransferDate must be before endTransferDate
		CodeRangeFuture:    "31232", // startTransferDate cannot be in the future
		CodeRangeTooLong:   "31233", // The date range … must be less than 1 year …
		CodeRangeNoHolding: "31234", // Either departureHolding or destinationHolding must be specified
		CodeRangeSpeciesID: "31235", // SpeciesId {0} is not valid
	},
	EndpointReviewLookup: {
		CodeBadEnum:   "30006", // The species {0} is invalid.
		CodeBadFormat: "30001", // {0} CPH {1} is not in the correct format.
		CodeForbidden: "30003", // You are not authorised to use holding {0} {1}.
	},
}

// LiveCode is the code an error of rule c carries on the wire of endpoint
// e: the live service's numeric code where it has one for that rule, else
// Drover's own.
func LiveCode(e Endpoint, c Code) string {
	if live, ok := endpointCodes[e][c]; ok {
		return live
	}
	if live, ok := liveCodes[c]; ok {
		return live
	}
	return string(c)
}

// LiveCode is the code f carries on the wire of endpoint e (LiveCode):
// a broken rule of an OData system query option ($top, $filter, …) is the
// live catalogue's 31003 whatever Drover's code for it.
func (f FieldError) LiveCode(e Endpoint) string {
	if strings.HasPrefix(f.Source, "query:$") && e != EndpointOtherMovement {
		return liveQueryOption
	}
	if e == EndpointUndo && f.Code == CodeBadLength && f.Source == "/content/trackingId" {
		return liveUndoTrackingLength
	}
	return LiveCode(e, f.Code)
}

// liveUndoTrackingLength is UndoRequests' own code for a trackingId over
// 36 characters ("The TrackingID {0} exceeds the maximum character limit
// of 36."); its catalogue has no 30061.
const liveUndoTrackingLength = "41"

// liveQueryOption is the live code of every refused OData query option:
// "The OData query options are invalid. {0}".
const liveQueryOption = "31003"

// Target writes where an error is (a FieldError's Source) as the live
// service's target does: a JSON pointer into the body as a property path,
// "/content/movementGroups/0/devices/1" as
// "content.movementGroups[0].devices[1]"; a parameter ("query:$top",
// "path:requestId") by its name alone.
func Target(source string) string {
	if !strings.HasPrefix(source, "/") {
		if _, name, ok := strings.Cut(source, ":"); ok {
			return name
		}
		return source
	}
	var b strings.Builder
	for _, seg := range strings.Split(source[1:], "/") {
		seg = strings.ReplaceAll(strings.ReplaceAll(seg, "~1", "/"), "~0", "~")
		if isIndex(seg) && b.Len() > 0 {
			b.WriteString("[" + seg + "]")
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('.')
		}
		b.WriteString(seg)
	}
	return b.String()
}

func isIndex(s string) bool {
	if s == "" || (len(s) > 1 && s[0] == '0') {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}
