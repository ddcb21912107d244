/** The partner account, its developer fee, activity and credit (spec 2.1, 2.5, 2.6, 4.1). */
import {
  Account,
  ActivityList,
  ActivityQuery,
  Credit,
  DeveloperFee,
  DeveloperFeeRequest,
} from '../schemas/account.js';
import { endpoint } from './endpoint.js';

/** The account endpoints, keyed by operation ID. */
export const ACCOUNT_ENDPOINTS = {
  'account.retrieve': endpoint({
    method: 'GET',
    path: '/v2/account',
    summary: 'The partner account',
    section: '2.1',
    data: Account,
    errors: [],
  }),
  'account.updateDeveloperFee': endpoint({
    method: 'PUT',
    path: '/v2/account/developer-fee',
    summary: 'Set the developer fee (percent 0 to 0.05)',
    section: '4.1',
    data: DeveloperFee,
    errors: ['VALIDATION_ERROR'],
    body: DeveloperFeeRequest,
  }),
  'account.listActivity': endpoint({
    method: 'GET',
    path: '/v2/account/activity',
    summary: 'The most recent transactions',
    section: '2.6',
    data: ActivityList,
    query: ActivityQuery,
    errors: [],
  }),
  'account.retrieveCredit': endpoint({
    method: 'GET',
    path: '/v2/account/credit',
    summary: 'The prefunded credit figures',
    section: '2.5',
    data: Credit,
    errors: [],
    assumptions: ['Prefunded credit'],
  }),
};
