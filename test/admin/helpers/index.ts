/**
 * What the Admin API suites share: the routes, requests and page walks, the assertions every
 * answer must pass, the expected shapes and bodies built from store records, and filter checks.
 */
export { expectAccessDenied, expectError, expectErrorBody, expectInvalidParameters, expectJson, expectNoNulls } from './assertions';
export { BAD_DATE_TIMES, DATE_TIME, iso, sameInstants } from './date-times';
export {
  ACTIONS,
  actionRequests,
  allowedMethods,
  BASE,
  demoPlanId,
  LIST_ENDPOINTS,
  ROUTES,
  routeUrls,
  type ActionInfo,
  type ActionRequest,
  type ListEndpointInfo,
  type Route,
} from './endpoints';
export {
  activeMembers,
  expectedContentView,
  expectedMember,
  expectedMemberEvent,
  expectedMembership,
  expectedPlan,
  expectedSite,
} from './expected-bodies';
export { testMalformedDateTimes, testRangeBoundaries, type DateRange } from './filter-tests';
export { expectEqualsFilter, expectListed, expectRangeBoundaries, expectRangeWindows, inRange, sampleValues } from './filters';
export { expectListsStoredRows, type StoredRowsListing } from './listing';
export { BASE64URL, brief, call, cursorOf, ids, queryString, walkPages, type RequestOptions, type Walk } from './requests';
export {
  CONTENT_VIEW_SHAPE,
  EXPIRATION_SHAPES,
  expectShape,
  MEMBER_EVENT_SHAPE,
  MEMBER_SHAPE,
  MEMBERSHIP_SHAPE,
  PLAN_SHAPES,
  SITE_SHAPE,
  type FieldType,
} from './shapes';
export { demoData, siteAndKey, sitesWithData, UNKNOWN_KEY, type SiteAndKey, type SiteName } from './sites';
