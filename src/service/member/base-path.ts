/** Where the member API is mounted (../app.ts): its own module, so the pieces that build its URLs need not import the app. */
export const MEMBER_BASE_PATH = '/member/v1';
