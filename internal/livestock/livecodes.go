package livestock

import (
	"maps"
	"strings"
)

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
	CodeCorrectionChanges: "4077",  // The species and user holding cannot be changed.
	CodeMovedLater:        "14121", // … one or more animals have been updated in subsequent requests.
	CodeUndoneAlready:     "14012", // Specified request have been already scheduled for undo operation. …
	CodeJourneyLong:       "21502", // … number of days between departure {1} and arrival date {2} is above the configuration maximum {3}.
	CodeReviewedAlready:   "21389", // The MovementRequest_ID {0} has already been reviewed by ReviewMovement Request_ID {1}.
	CodeBatchLineTwice:    "21378", // … contains a ShowBatch or HideBatch with a duplicate BatchMovement_ID {1}.
	CodeReportedByBoth:    "14104", // Unable to UNDO creation of Movement as it has been subsequently reviewed and accepted or rejected
	CodeReviewedSince:     "14104", // the same
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
	CodeBirthOrder:        "8004",  // The start date of birth date range is later than the the end date of birthdate range.
	CodeBirthSpan:         "8022",  // The beginning birth period and the ending birth period cannot be more than {0} days apart
	CodeNotSubmitter:      "14002", // Only administrator and user who made the original request can submit the request.
	CodeRejectAccepts:     "21375", // The MovementRequest_ID {0} cannot be rejected as it contains {1} ShowBatches and {2} ShowDevices.
	CodeRejectTotal:       "21504", // The MovementRequest_ID {0} review is rejected, animal total should not be set {1}.
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
// live catalogue's 31003 whatever Drover's code for it, and a rule the
// catalogue gives a field its own code for (fieldCodes) has that code.
func (f FieldError) LiveCode(e Endpoint) string {
	if strings.HasPrefix(f.Source, "query:$") && e != EndpointOtherMovement {
		return liveQueryOption
	}
	if live, ok := fieldCode(e, f); ok {
		return live
	}
	return LiveCode(e, f.Code)
}

// fieldRule is a rule broken at a field: Drover's code and the field's
// JSON pointer with each array index written "*".
type fieldRule struct {
	code Code
	path string
}

// transferFields are the live codes the catalogues of TransferRequests and
// CorrectTransferRequests give to one field's rule, where the generic code
// (30059 invalid format, 30060 invalid value, 30062 required, 31000 must
// not be set) would otherwise stand.
var transferFields = map[fieldRule]string{
	// A body whose content is missing or null, as the OpenAPI check finds it.
	{CodeMissing, "/content"}:                                                                   "30072", // The request is NULL.
	{CodeWrongType, "/content"}:                                                                 "30072",
	{CodeBadFormat, "/content/animalCount"}:                                                     "4009",  // The number of animals should be between 1 and 99,999.
	{CodeAnimalCount, "/content/movementDocument/departureDetail/animalTotal"}:                  "21109", // The Departure AnimalTotal {0} must equal the total …
	{CodeAnimalCount, "/content/movementDocument/destinationDetail/totalAnimalsReceived"}:       "21148", // The total animals received must equal …
	{CodeBadEnum, "/content/movementDocument/documentType"}:                                     "4058",  // The DocumentType_ID {0} is invalid.
	{CodeMissing, "/content/movementDocument/documentType"}:                                     "4059",  // Both the DocumentID and DocumentType must be specified or left empty.
	{CodeMissing, "/content/movementDocument/movementDocumentRef"}:                              "4059",
	{CodeBadEnum, "/content/movementDocument/transportDetail/transporterType"}:                  "21130", // The MovementDocument TransporterType {0} is invalid.
	{CodeBadEnum, "/content/movementDocument/fciDetail/metFCIWithdrawalPeriodCode"}:             "21161", // The FCI Withdrawal Periods Met option is invalid.
	{CodeNotForCattle, "/content/movementDocument"}:                                             "21164", // Populating the movement document … isn't supported for the species {0}.
	{CodeBadFormat, "/content/movementGroups/*/batches/*/batchNumber"}:                          "30010", // The batch number {0} is in an invalid format.
	{CodeBadFormat, "/content/movementGroups/*/batches/*/animalTotal"}:                          "30011", // The AnimalTotal for the batch number {0} must be between 1 and 99999.
	{CodeBadEnum, "/content/movementGroups/*/batches/*/stockType"}:                              "30012", // The BatchNumber {0} contains an invalid StockType {1} …
	{CodeNotForCattle, "/content/movementGroups/*/batches/*"}:                                   "30009", // Batch identification is not supported for the species {0}.
	{CodeBadFormat, "/content/movementGroups/*/devices/*/tagNumber"}:                            "30019", // The tag number {0} is in an invalid format.
	{CodeBadFormat, "/content/movementGroups/*/devicesWithDetail/*/device/tagNumber"}:           "30019",
	{CodeMissing, "/content/movementGroups/*/devices/*/tagNumber"}:                              "30017", // The animal must have either the visual tag number or EID specified.
	{CodeMissing, "/content/movementGroups/*/devicesWithDetail/*/device/tagNumber"}:             "30017",
	{CodeBadFormat, "/content/movementGroups/*/devices/*/rfid"}:                                 "3027", // The RFID {0} is in an invalid format.
	{CodeBadFormat, "/content/movementGroups/*/devicesWithDetail/*/device/rfid"}:                "3027",
	{CodeNotForCattle, "/content/movementGroups/*/devices/*/rfid"}:                              "3028", // The RFID {0} not valid for this species.
	{CodeNotForCattle, "/content/movementGroups/*/devicesWithDetail/*/device/rfid"}:             "3028",
	{CodeMissing, "/content/movementGroups/*/devicesWithDetail/*/beginBirthPeriod"}:             "8023", // Either both the Beginning and Ending birth period must be specified or none at all
	{CodeMissing, "/content/movementGroups/*/devicesWithDetail/*/endBirthPeriod"}:               "8023",
	{CodeDateFuture, "/content/movementGroups/*/devicesWithDetail/*/beginBirthPeriod"}:          "8038", // The beginning birth period must be … a valid date that is not in the future.
	{CodeDateFuture, "/content/movementGroups/*/devicesWithDetail/*/dateOfBirth"}:               "8038",
	{CodeDateFuture, "/content/movementGroups/*/devicesWithDetail/*/endBirthPeriod"}:            "8039", // The end birth period must be … a valid date that is not in the future.
	{CodeDateFuture, "/content/deviceApplication/beginBirthPeriod"}:                             "8038",
	{CodeDateFuture, "/content/deviceApplication/endBirthPeriod"}:                               "8039",
	{CodeBirthAfterApplication, "/content/deviceApplication/beginBirthPeriod"}:                  "8025",  // The beginning birth period must be earlier than the application date.
	{CodeBirthAfterApplication, "/content/deviceApplication/endBirthPeriod"}:                    "8040",  // The end birth period must be earlier than the application date.
	{CodeBadEnum, "/content/movementGroups/*/devicesWithDetail/*/gender"}:                       "21458", // The {1} gender {0} does not exists or is invalid for the species of animal.
	{CodeBadEnum, "/content/movementGroups/*/devicesWithDetail/*/breed"}:                        "21465", // The {1} breed {0} is invalid for species.
	{CodeBadFormat, "/content/movementGroups/*/devicesWithDetail/*/mgtTag/identifier"}:          "21904", // The management identifier/tag {0} … has some invalid characters …
	{CodeMissing, "/content/sourceHolding"}:                                                     "30000", // {0} CPH is missing.
	{CodeMissing, "/content/destinationHolding"}:                                                "30000",
	{CodeMissing, "/content/userHolding"}:                                                       "30000",
	{CodeBadFormat, "/content/sourceHolding"}:                                                   "30001", // {0} CPH {1} is not in the correct format.
	{CodeBadFormat, "/content/destinationHolding"}:                                              "30001",
	{CodeBadFormat, "/content/userHolding"}:                                                     "30001",
	{CodeMissing, "/content/movementGroups"}:                                                    "4064",  // The transfer must include one or more individual identified animals or batches.
	{CodeHoldingType, "/content/sourceHolding"}:                                                 "4070",  // Movements must not be recorded off an abattoir.
	{CodeSaleOnly, "/content/saleDate"}:                                                         "4043",  // Only Saleyard can specify Sale Date and only for a saleyard out transfer.
	{CodeSaleOnly, "/content/saleId"}:                                                           "4044",  // Only Saleyard can specify Sale ID …
	{CodeSaleOnly, "/content/movementGroups/*/vendorHolding"}:                                   "4046",  // Only Saleyard can specify Vendor Holding …
	{CodeBadFormat, "/content/transportVehicleRegistrationNo"}:                                  "4061",  // The TransportVehicleRegistrationNo {0} is in an invalid format.
	{CodeBadFormat, "/content/movementDocument/transportDetail/transportVehicleRegistrationNo"}: "21131", // The MovementDocument TransportVehicleRegistrationNo {0} is in an invalid format.
	{CodeDocumentTimes, "/content/movementDocument/departureDetail/loadingDateTime"}:            "21118", // The Loading Date Time must be before the Departure Date Time {0}.
	{CodeDocumentTimes, "/content/movementDocument/destinationDetail/arrivalDateTime"}:          "21116", // The Arrival Date Time must be after Departure Date Time {0}.
	{CodeDocumentTimes, "/content/movementDocument/destinationDetail/unloadingDateTime"}:        "21121", // The Unloading Date Time must be after the Arrival Date Time {0}.
	{CodeDateFuture, "/content/movementDocument/departureDetail/departureDateTime"}:             "21110", // The Departure Date Time is an invalid date and cannot be in the future.
	{CodeDateFuture, "/content/movementDocument/destinationDetail/arrivalDateTime"}:             "21113", // The Arrival Date Time is an invalid date and cannot be in the future.
}

// correctionFields are a transfer's field codes and the correction's own:
// the request to correct not named (under either of its names).
var correctionFields = func() map[fieldRule]string {
	m := maps.Clone(transferFields)
	m[fieldRule{CodeMissing, "/content/requestToBeUndone_ID"}] = "4074" // Request_ID of the movement to correct must be specified.
	m[fieldRule{CodeMissing, "/content/requestToBeCorrected_ID"}] = "4074"
	return m
}()

// fieldCodes are the per-field live codes of each endpoint.
var fieldCodes = map[Endpoint]map[fieldRule]string{
	EndpointTransfer:   transferFields,
	EndpointCorrection: correctionFields,
	EndpointReview: {
		{CodeWrongType, "/content"}:                        "21370", // The ReviewHoldingMovement is NULL.
		{CodeMissing, "/content"}:                          "21370",
		{CodeMissing, "/content/reviewMovement"}:           "21371", // The ReviewHoldingMovement must contain one or more ReviewedMovements.
		{CodeWrongType, "/content/reviewMovement"}:         "21371",
		{CodeMissing, "/content/reviewMovement/requestId"}: "21372", // The ReviewedMovements requires a value for the MovementRequest_ID.
		// The MovementRequest_ID {0} contains a ShowBatch or HideBatch with a invalid BatchMovement_ID {1}.
		{CodeReviewDevice, "/content/reviewMovement/acceptedBatches/*/batchMovementId"}: "21377",
		{CodeReviewDevice, "/content/reviewMovement/rejectedBatches/*/batchMovementId"}: "21377",
		{CodeMissing, "/content/reviewMovement/arrivalDate"}:                            "21508", // … the arrival date has not been supplied.
		{CodeMissing, "/content/reviewMovement/isAccepted"}:                             "21374", // … requires a value for the accepted field.
		{CodeMissing, "/content/holding"}:                                               "30000", // {0} CPH is missing.
		{CodeBadFormat, "/content/holding"}:                                             "30001", // {0} CPH {1} is not in the correct format.
		{CodeBadFormat, "/content/reviewMovement/acceptedDevices/*/tagNumber"}:          "30019", // The tag number {0} is in an invalid format.
		{CodeBadFormat, "/content/reviewMovement/rejectedDevices/*/tagNumber"}:          "30019",
		{CodeMissing, "/content/reviewMovement/acceptedDevices/*/tagNumber"}:            "30017", // The animal must have either the visual tag number or EID specified.
		{CodeMissing, "/content/reviewMovement/rejectedDevices/*/tagNumber"}:            "30017",
	},
	EndpointReviewLookup: {
		{CodeMissing, "path:species"}: "22080", // Species must be provided
	},
	EndpointUndo: {
		{CodeWrongType, "/content"}:             "14003", // The Undo Request cannot be NULL.
		{CodeMissing, "/content"}:               "14003",
		{CodeMissing, "/content/undoRequestId"}: "14003",
		{CodeBadLength, "/content/trackingId"}:  "41", // The TrackingID {0} exceeds the maximum character limit of 36.
	},
}

// fieldCode is the live code fieldCodes gives f on endpoint e. A holding
// given as "" is missing (30000) rather than badly formed, and the species
// UNKNOWN has its own refusal.
func fieldCode(e Endpoint, f FieldError) (string, bool) {
	rules := fieldCodes[e]
	if rules == nil || f.Source == "" {
		return "", false
	}
	path := indexesAsStar(f.Source)
	if (e == EndpointTransfer || e == EndpointCorrection) && f.Code == CodeBadEnum && path == "/content/species" &&
		strings.EqualFold(f.Value, "UNKNOWN") {
		return liveUnknownSpecies, true
	}
	if f.Code == CodeBadFormat && f.Value == "" && strings.HasSuffix(path, "Holding") {
		if live, ok := rules[fieldRule{CodeMissing, path}]; ok {
			return live, true
		}
	}
	live, ok := rules[fieldRule{f.Code, path}]
	return live, ok
}

// liveUnknownSpecies: "You cannot transfer UNKNOWN species."
const liveUnknownSpecies = "4042"

// indexesAsStar is JSON pointer p with each segment that is an array
// index written "*".
func indexesAsStar(p string) string {
	segs := strings.Split(p, "/")
	for i, s := range segs {
		if isIndex(s) {
			segs[i] = "*"
		}
	}
	return strings.Join(segs, "/")
}

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
