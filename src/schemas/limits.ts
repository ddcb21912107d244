// The limits of spec 8 (and the thresholds of 2.2, 4.7, 4.9, 4.11), shared by the schemas, the mock and the docs.
/** Minimum transaction amount in USD, as a decimal string (spec 8). */
export const MIN_AMOUNT_USD = '10';
/** Maximum transaction amount in USD, as a decimal string (spec 8). */
export const MAX_AMOUNT_USD = '50000';
/** Largest developer fee, as a fraction (5%) (spec 2.2). */
export const MAX_DEVELOPER_FEE_PERCENT = 0.05;
/** Smallest developer fee, as a fraction (spec 2.2). */
export const MIN_DEVELOPER_FEE_PERCENT = 0;
/** Default `limit` of the activity list (spec 4.1). */
export const DEFAULT_ACTIVITY_LIMIT = 10;
/** Largest `limit` of the activity list (spec 4.1). */
export const MAX_ACTIVITY_LIMIT = 50;
/** Default page of the webhook event list (spec 8). */
export const DEFAULT_WEBHOOK_PAGE = 1;
/** Default page size of the webhook event list (spec 8). */
export const DEFAULT_WEBHOOK_LIMIT = 20;
/** Largest page size of the webhook event list (assumption, docs/assumptions.md). */
export const MAX_WEBHOOK_LIMIT = 100;
/** Number of digits in every OTP (spec 8). */
export const OTP_LENGTH = 6;
/** Seconds an OTP stays valid (spec 8). */
export const OTP_TTL_SECONDS = 600;
/** Largest document file in bytes (10 MB) (spec 8). */
export const MAX_DOCUMENT_BYTES = 10_485_760;
/** Seconds a presigned upload URL lives (spec 8). */
export const PRESIGNED_URL_TTL_SECONDS = 300;
/** Seconds a document-locker session lives (spec 8). */
export const DIGILOCKER_SESSION_TTL_SECONDS = 600;
/** Seconds a face liveness session lives (spec 8). */
export const FACE_SESSION_TTL_SECONDS = 600;
/** Smallest account number length in digits (spec 4.7). */
export const MIN_ACCOUNT_NUMBER_DIGITS = 9;
/** Largest account number length in digits (spec 4.7). */
export const MAX_ACCOUNT_NUMBER_DIGITS = 18;
/** IFSC length (spec 4.7). */
export const IFSC_LENGTH = 11;
/** Longest `occupationOther` (spec 4.11). */
export const MAX_OCCUPATION_OTHER_LENGTH = 100;
/** Longest PEP details text (spec 4.11). */
export const MAX_PEP_DETAILS_LENGTH = 500;
/** Name match pass mark, percent (spec 8). */
export const NAME_MATCH_THRESHOLD = 70;
/** Face liveness pass mark (spec 4.9). */
export const LIVENESS_THRESHOLD = 0.8;
/** Face match pass mark (spec 4.9). */
export const FACE_MATCH_THRESHOLD = 0.7;
