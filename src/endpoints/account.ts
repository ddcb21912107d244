/** The partner account, its developer fee, activity and credit (spec 2.1, 2.5, 2.6, 4.1). */
import {
  Account,
  ActivityList,
  ActivityQuery,
  Credit,
  DeveloperFee,
  DeveloperFeeRequest,
} from '../schemas/account.js';
import type { Endpoint, EndpointContract } from './endpoint.js';

/** The account endpoints' calls, keyed by operation ID. */
export const ACCOUNT_ENDPOINTS = {
  'account.retrieve': {
    method: 'GET',
    path: '/v2/account',
    data: Account,
  },
  'account.updateDeveloperFee': {
    method: 'PUT',
    path: '/v2/account/developer-fee',
    data: DeveloperFee,
    body: DeveloperFeeRequest,
  },
  'account.listActivity': {
    method: 'GET',
    path: '/v2/account/activity',
    data: ActivityList,
    query: ActivityQuery,
  },
  'account.retrieveCredit': {
    method: 'GET',
    path: '/v2/account/credit',
    data: Credit,
  },
} as const satisfies Record<string, Endpoint>;

/** The account endpoints' contract, keyed as the calls are. */
export const ACCOUNT_CONTRACTS: Record<keyof typeof ACCOUNT_ENDPOINTS, EndpointContract> = {
  'account.retrieve': {
    summary: 'The partner account',
    section: '2.1',
    errors: [],
  },
  'account.updateDeveloperFee': {
    summary: 'Set the developer fee (percent 0 to 0.05)',
    section: '4.1',
    errors: ['VALIDATION_ERROR'],
  },
  'account.listActivity': {
    summary: 'The most recent transactions',
    section: '2.6',
    errors: [],
  },
  'account.retrieveCredit': {
    summary: 'The prefunded credit figures',
    section: '2.5',
    errors: [],
    assumptions: ['Prefunded credit'],
  },
};
