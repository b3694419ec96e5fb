import type { ClaimsOverview } from '../claims/claimsOverview';
import { formatMoment } from '../lib/utcDay';
import { adminSections } from './adminSections';
import { Caption, ScrollBox } from './ScrollBox';

/**
 * The Claims card (issue 42): each claim of the registry, its verdict against the merchant's pages, when it
 * was last verified, and what the page says now, with the page's address.
 */
export function ClaimsCard({ claims }: { claims: ClaimsOverview }) {
  const notVerified = claims.claims.filter((claim) => claim.verdict !== 'verified').length;
  return (
    <section id="claims" className="card" aria-labelledby="claims-heading">
      <h2 id="claims-heading">{adminSections.claims}</h2>
      <p className="muted">
        {claims.off
          ? `The claims are not checked: ${claims.off}.`
          : notVerified === 0
            ? 'Every claim the copy makes about the offer matches the merchant’s pages.'
            : `${notVerified} of ${claims.claims.length} claims are not verified (see docs/claims.md for the verdicts).`}
      </p>
      <ScrollBox label="Claims and what the merchant's pages say">
        <table>
          <Caption>Each claim the copy makes about the offer, checked against the merchant's own pages.</Caption>
          <thead>
            <tr>
              <th scope="col">Claim</th>
              <th scope="col">Verdict</th>
              <th scope="col">Last verified</th>
              <th scope="col">What the page says</th>
            </tr>
          </thead>
          <tbody>
            {claims.claims.map((claim) => (
              <tr key={claim.id}>
                <th scope="row">{claim.says}</th>
                <td>{claim.verdict}</td>
                <td>{claim.verifiedAt === undefined ? (claim.checkedAt === undefined ? 'never checked' : 'never') : formatMoment(claim.verifiedAt)}</td>
                <td>
                  {claim.excerpt ?? ''}
                  {claim.url && (
                    <>
                      {claim.excerpt ? ' ' : ''}(<a href={claim.url}>{claim.url}</a>)
                    </>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </ScrollBox>
    </section>
  );
}
