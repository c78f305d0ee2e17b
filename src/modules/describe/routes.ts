// POST /describe: molecular properties (src/chem/properties) computed in the chemistry worker
// pool, cached by canonical SMILES.
import { Type } from '@sinclair/typebox';
import { ok, routeFactory } from '../../api/declare-route.js';
import { DESCRIBE_SCHEMAS, DescribeRequest, DescribeResponse } from './schemas.js';
import { describeMolecules } from './service.js';

export { DESCRIBE_SCHEMAS };

const route = routeFactory({ tags: ['chemistry'] });

export const describeRoutes = route('POST /describe', 'describeMolecules', {
  // Computing properties changes nothing: the read scope covers it (docs/api-decisions.md, "The contract the code relies on").
  config: { scope: 'read' },
  summary: 'Molecular properties from SMILES',
  description: 'One item per input, in input order; a bad input yields an item carrying `error`, never a failed request.',
  body: Type.Ref(DescribeRequest),
  response: ok(DescribeResponse, 'The properties of each molecule, in input order'),
  handler: async ({ chem }, request) => describeMolecules(chem, { smiles: request.body.smiles }),
});
