/** Scalars: Strapi's custom scalars and how each attribute type maps onto a GraphQL scalar. */
import { SCALAR_TYPES, type GraphqlScalar } from '../../../templates/contract/scalar-types.ts';
import type { ScalarType } from '../../model/types.ts';
import type { ScalarDef } from './definitions.ts';

/** The scalar of locale arguments (`locale: I18NLocaleCode`); `*` means every locale. */
export const LOCALE_SCALAR = 'I18NLocaleCode';

/** The custom scalars Strapi declares, with the descriptions its schema carries. */
export function customScalars(): ScalarDef[] {
  const scalar = (name: string, description: string): ScalarDef => ({ kind: 'scalar', group: 'scalar', name, description });
  return [
    scalar('JSON', 'The `JSON` scalar type represents JSON values as specified by [ECMA-404](http://www.ecma-international.org/publications/files/ECMA-ST/ECMA-404.pdf).'),
    scalar(
      'DateTime',
      'A date-time string at UTC, such as 2007-12-03T10:15:30Z, compliant with the `date-time` format outlined in section 5.6 of the RFC 3339 profile of the ISO 8601 standard for representation of dates and times using the Gregorian calendar.',
    ),
    scalar(
      'Date',
      'A date string, such as 2007-12-03, compliant with the `full-date` format outlined in section 5.6 of the RFC 3339 profile of the ISO 8601 standard for representation of dates and times using the Gregorian calendar.',
    ),
    scalar('Time', 'A time string with format HH:mm:ss.SSS'),
    // Strapi names it Long but describes it as BigInt; values are numbers in GraphQL (strings in REST).
    scalar('Long', 'The `BigInt` scalar type represents non-fractional signed whole numeric values.'),
    scalar(LOCALE_SCALAR, 'A string used to identify an i18n locale'),
  ];
}

/**
 * The GraphQL scalar of an attribute type, as Strapi maps it (the contract's SCALAR_TYPES).
 * Enumerations map to String here because that is how they are filtered; their output and input
 * types are their own enums.
 */
export function graphqlScalar(type: ScalarType): GraphqlScalar {
  return SCALAR_TYPES[type].graphql;
}
