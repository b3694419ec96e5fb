import { sql, type Kysely } from 'kysely';
import type { Migration } from './migration';

/**
 * 14: the counted conversions summed ahead of the reports (issue 27's volume). A year's /admin grouped
 * its 50,000 conversions per day, placement, source and currency on every read (some 50 ms of SQLite's
 * time and 24,000 rows for the report to regroup); these hold what it reads, kept as conversions change:
 * - conversion_days: per attributed day (the click's, else the day received), placement and currency:
 *   the report's daily and per-placement earnings, a few thousand rows a year;
 * - conversion_source_days: per attributed day, source and currency: the sources of the days listed and
 *   the days around a range's whole months;
 * - conversion_source_months: per month of the attributed day, source and currency: a range's whole months;
 * - conversion_campaign_months: the conversions that carried a campaign or an ad, per month, source,
 *   campaign, ad (content) and currency: the campaigns' spend section's whole months (its days around
 *   them are read from the conversions, through their partial index).
 * '' stands for a part not known, as in daily_conversions. They count the conversions not reversed and
 * those folded past retention (into daily_conversions, and daily_campaign_conversions for the campaigns'),
 * as the reports always have.
 *
 * Triggers keep them, in the transaction that changes a conversion, on both engines: every write of
 * conversions (a postback, an import, a reversal, the fold past retention, db:copy, a test's own rows)
 * keeps the sums true without knowing of them, and a fold (a conversion deleted, its day's row in
 * daily_conversions added to) leaves them as they were. Each change adds to or takes from the sums' rows
 * (an upsert that adds), so writers at two instances add side by side under PostgreSQL's row locks.
 */

/**
 * A transaction-local setting under which PostgreSQL's triggers leave the sums alone: set by the fold past
 * retention (server/conversions/conversionStore.ts), which moves conversions without changing what counts.
 * Spelled out again there, since a released step imports nothing that may change.
 */
const movingConversionsSetting = 'auctions_guide.moving_conversions';

/** What a row counts for, each part an SQL expression of a trigger's `new` or `old` row. */
interface Counted {
  day: string;
  placement: string;
  source: string;
  currency: string;
  conversions: string;
  micros: string;
}

interface CampaignCounted extends Omit<Counted, 'placement'> {
  campaign: string;
  content: string;
}

/** A conversion's row (`new` or `old`) as the sums count it: one conversion and its payout. */
const conversionRow = (row: 'new' | 'old'): Counted => ({
  day: `coalesce(${row}.click_day, ${row}.day)`,
  placement: `coalesce(${row}.placement, '')`,
  source: `coalesce(${row}.source, '')`,
  currency: `${row}.currency`,
  conversions: '1',
  micros: `coalesce(${row}.payout_micros, 0)`,
});

/** A daily_conversions row, already summed. */
const foldedRow = (row: 'new' | 'old'): Counted => ({
  day: `${row}.day`,
  placement: `${row}.placement`,
  source: `${row}.source`,
  currency: `${row}.currency`,
  conversions: `${row}.conversions`,
  micros: `${row}.payout_micros`,
});

/** A conversion's row as the campaigns' sums count it. */
const campaignConversionRow = (row: 'new' | 'old'): CampaignCounted => ({
  ...conversionRow(row),
  campaign: `coalesce(${row}.campaign, '')`,
  content: `coalesce(${row}.content, '')`,
});

/** A daily_campaign_conversions row, already summed. */
const foldedCampaignRow = (row: 'new' | 'old'): CampaignCounted => ({ ...foldedRow(row), campaign: `${row}.campaign`, content: `${row}.content` });

/** An upsert adding `sign` times a row's figures to a sum's row: one of SQLite's trigger statements. */
function sqliteAdd(table: string, key: string[], keyValues: string[], row: { conversions: string; micros: string }, sign: '+' | '-'): string {
  return `insert into ${table} (${key.join(', ')}, conversions, payout_micros) values (${keyValues.join(', ')}, ${sign}${row.conversions}, ${sign}${row.micros})
      on conflict (${key.join(', ')}) do update set conversions = conversions + excluded.conversions, payout_micros = payout_micros + excluded.payout_micros;`;
}

/** The three sums of every counted conversion. */
function sqliteAdds(row: Counted, sign: '+' | '-'): string {
  return [
    sqliteAdd('conversion_days', ['day', 'placement', 'currency'], [row.day, row.placement, `trim(${row.currency})`], row, sign),
    sqliteAdd('conversion_source_days', ['day', 'source', 'currency'], [row.day, row.source, `trim(${row.currency})`], row, sign),
    sqliteAdd('conversion_source_months', ['month', 'source', 'currency'], [`substr(${row.day}, 1, 7)`, row.source, `trim(${row.currency})`], row, sign),
  ].join('\n');
}

const campaignKey = ['month', 'source', 'campaign', 'content', 'currency'];

/** The campaigns' sum, of the counted conversions with a campaign or an ad. */
const sqliteCampaignAdd = (row: CampaignCounted, sign: '+' | '-') =>
  sqliteAdd('conversion_campaign_months', campaignKey, [`substr(${row.day}, 1, 7)`, row.source, row.campaign, row.content, `trim(${row.currency})`], row, sign);

/** A conversion that counts for the campaigns' sum: not reversed, with a campaign or an ad. */
const inCampaign = (row: 'new' | 'old') => `${row}.reversed_at is null and (${row}.campaign is not null or ${row}.content is not null)`;

async function sqliteTriggers(db: Kysely<any>): Promise<void> {
  const triggers: [name: string, event: string, table: string, when: string, body: string][] = [
    ['conversions_sums_insert', 'insert', 'conversions', 'new.reversed_at is null', sqliteAdds(conversionRow('new'), '+')],
    ['conversions_sums_update_old', 'update', 'conversions', 'old.reversed_at is null', sqliteAdds(conversionRow('old'), '-')],
    ['conversions_sums_update_new', 'update', 'conversions', 'new.reversed_at is null', sqliteAdds(conversionRow('new'), '+')],
    ['conversions_sums_delete', 'delete', 'conversions', 'old.reversed_at is null', sqliteAdds(conversionRow('old'), '-')],
    ['daily_conversions_sums_insert', 'insert', 'daily_conversions', '1', sqliteAdds(foldedRow('new'), '+')],
    ['daily_conversions_sums_update_old', 'update', 'daily_conversions', '1', sqliteAdds(foldedRow('old'), '-')],
    ['daily_conversions_sums_update_new', 'update', 'daily_conversions', '1', sqliteAdds(foldedRow('new'), '+')],
    ['daily_conversions_sums_delete', 'delete', 'daily_conversions', '1', sqliteAdds(foldedRow('old'), '-')],
    ['conversions_campaign_sums_insert', 'insert', 'conversions', inCampaign('new'), sqliteCampaignAdd(campaignConversionRow('new'), '+')],
    ['conversions_campaign_sums_update_old', 'update', 'conversions', inCampaign('old'), sqliteCampaignAdd(campaignConversionRow('old'), '-')],
    ['conversions_campaign_sums_update_new', 'update', 'conversions', inCampaign('new'), sqliteCampaignAdd(campaignConversionRow('new'), '+')],
    ['conversions_campaign_sums_delete', 'delete', 'conversions', inCampaign('old'), sqliteCampaignAdd(campaignConversionRow('old'), '-')],
    ['daily_campaign_conversions_sums_insert', 'insert', 'daily_campaign_conversions', '1', sqliteCampaignAdd(foldedCampaignRow('new'), '+')],
    ['daily_campaign_conversions_sums_update_old', 'update', 'daily_campaign_conversions', '1', sqliteCampaignAdd(foldedCampaignRow('old'), '-')],
    ['daily_campaign_conversions_sums_update_new', 'update', 'daily_campaign_conversions', '1', sqliteCampaignAdd(foldedCampaignRow('new'), '+')],
    ['daily_campaign_conversions_sums_delete', 'delete', 'daily_campaign_conversions', '1', sqliteCampaignAdd(foldedCampaignRow('old'), '-')],
  ];
  for (const [name, event, table, when, body] of triggers) {
    await sql.raw(`create trigger ${name} after ${event} on ${table} when ${when} begin\n${body}\nend`).execute(db);
  }
}

async function postgresTriggers(db: Kysely<any>): Promise<void> {
  // One function adds to the three sums; each table's trigger calls it for the old row (taken away) and
  // the new one (added), where they count.
  await sql`create function add_conversion_sums(p_day text, p_placement text, p_source text, p_currency text, p_conversions bigint, p_micros bigint) returns void language plpgsql as $$
    begin
      insert into conversion_days (day, placement, currency, conversions, payout_micros) values (p_day, p_placement, trim(p_currency), p_conversions, p_micros)
        on conflict (day, placement, currency) do update set conversions = conversion_days.conversions + excluded.conversions, payout_micros = conversion_days.payout_micros + excluded.payout_micros;
      insert into conversion_source_days (day, source, currency, conversions, payout_micros) values (p_day, p_source, trim(p_currency), p_conversions, p_micros)
        on conflict (day, source, currency) do update set conversions = conversion_source_days.conversions + excluded.conversions, payout_micros = conversion_source_days.payout_micros + excluded.payout_micros;
      insert into conversion_source_months (month, source, currency, conversions, payout_micros) values (substr(p_day, 1, 7), p_source, trim(p_currency), p_conversions, p_micros)
        on conflict (month, source, currency) do update set conversions = conversion_source_months.conversions + excluded.conversions, payout_micros = conversion_source_months.payout_micros + excluded.payout_micros;
    end $$`.execute(db);
  await sql`create function add_conversion_campaign_sums(p_day text, p_source text, p_campaign text, p_content text, p_currency text, p_conversions bigint, p_micros bigint) returns void language plpgsql as $$
    begin
      insert into conversion_campaign_months (month, source, campaign, content, currency, conversions, payout_micros)
        values (substr(p_day, 1, 7), p_source, p_campaign, p_content, trim(p_currency), p_conversions, p_micros)
        on conflict (month, source, campaign, content, currency) do update
        set conversions = conversion_campaign_months.conversions + excluded.conversions, payout_micros = conversion_campaign_months.payout_micros + excluded.payout_micros;
    end $$`.execute(db);
  const campaignCall = (row: CampaignCounted, sign: '+' | '-') =>
    `perform add_conversion_campaign_sums(${row.day}, ${row.source}, ${row.campaign}, ${row.content}, ${row.currency}, ${sign}(${row.conversions})::bigint, ${sign}(${row.micros})::bigint);`;
  const call = (row: Counted, sign: '+' | '-') =>
    `perform add_conversion_sums(${row.day}, ${row.placement}, ${row.source}, ${row.currency}, ${sign}(${row.conversions})::bigint, ${sign}(${row.micros})::bigint);`;
  // OLD is null in an insert and NEW in a delete: each is read only under the operation that has it.
  // The fold past retention moves counted conversions into the daily tables, which leaves every sum as
  // it was: it says so for its transaction (movingConversionsSetting) and the triggers stand aside, so it
  // never locks a sum's row, and cannot deadlock with a refund that holds one (see conversionStore.ts).
  const fn = (name: string, old: string, added: string) =>
    sql.raw(`create function ${name}() returns trigger language plpgsql as $$
      begin
        if current_setting('${movingConversionsSetting}', true) = 'on' then return null; end if;
        if tg_op in ('UPDATE', 'DELETE') then ${old} end if;
        if tg_op in ('INSERT', 'UPDATE') then ${added} end if;
        return null;
      end $$`);
  await fn(
    'conversions_sums',
    `if old.reversed_at is null then ${call(conversionRow('old'), '-')} end if;
     if ${inCampaign('old')} then ${campaignCall(campaignConversionRow('old'), '-')} end if;`,
    `if new.reversed_at is null then ${call(conversionRow('new'), '+')} end if;
     if ${inCampaign('new')} then ${campaignCall(campaignConversionRow('new'), '+')} end if;`,
  ).execute(db);
  await fn('daily_conversions_sums', call(foldedRow('old'), '-'), call(foldedRow('new'), '+')).execute(db);
  await fn('daily_campaign_conversions_sums', campaignCall(foldedCampaignRow('old'), '-'), campaignCall(foldedCampaignRow('new'), '+')).execute(db);
  await sql`create trigger conversions_sums after insert or update or delete on conversions for each row execute function conversions_sums()`.execute(db);
  await sql`create trigger daily_conversions_sums after insert or update or delete on daily_conversions for each row execute function daily_conversions_sums()`.execute(db);
  await sql`create trigger daily_campaign_conversions_sums after insert or update or delete on daily_campaign_conversions for each row execute function daily_campaign_conversions_sums()`.execute(db);
}

const migration: Migration = async (db, engine) => {
  const table = (name: string, key: string[]) => {
    let builder = db.schema.createTable(name);
    for (const column of key) builder = builder.addColumn(column, 'text', (col) => col.notNull());
    return builder
      .addColumn('conversions', 'bigint', (col) => col.notNull())
      .addColumn('payout_micros', 'bigint', (col) => col.notNull())
      .addPrimaryKeyConstraint(`${name}_pk`, key as never)
      .execute();
  };
  await table('conversion_days', ['day', 'placement', 'currency']);
  await table('conversion_source_days', ['day', 'source', 'currency']);
  await table('conversion_source_months', ['month', 'source', 'currency']);
  await table('conversion_campaign_months', campaignKey);

  // The conversions held now, counted as the reports count them (server/dayCounts/countedConversions.ts).
  const counted = sql`select coalesce(click_day, day) as day, coalesce(placement, '') as placement, coalesce(source, '') as source, trim(currency) as currency,
      1 as conversions, coalesce(payout_micros, 0) as micros from conversions where reversed_at is null
    union all select day, placement, source, trim(currency), conversions, payout_micros from daily_conversions`;
  await sql`insert into conversion_days (day, placement, currency, conversions, payout_micros)
    select day, placement, currency, sum(conversions), sum(micros) from (${counted}) as counted group by day, placement, currency`.execute(db);
  await sql`insert into conversion_source_days (day, source, currency, conversions, payout_micros)
    select day, source, currency, sum(conversions), sum(micros) from (${counted}) as counted group by day, source, currency`.execute(db);
  await sql`insert into conversion_source_months (month, source, currency, conversions, payout_micros)
    select substr(day, 1, 7), source, currency, sum(conversions), sum(micros) from (${counted}) as counted group by substr(day, 1, 7), source, currency`.execute(db);
  await sql`insert into conversion_campaign_months (month, source, campaign, content, currency, conversions, payout_micros)
    select substr(day, 1, 7), source, campaign, content, currency, sum(conversions), sum(micros) from (
      select coalesce(click_day, day) as day, coalesce(source, '') as source, coalesce(campaign, '') as campaign, coalesce(content, '') as content,
        trim(currency) as currency, 1 as conversions, coalesce(payout_micros, 0) as micros
      from conversions where reversed_at is null and (campaign is not null or content is not null)
      union all select day, source, campaign, content, trim(currency), conversions, payout_micros from daily_campaign_conversions
    ) as counted group by substr(day, 1, 7), source, campaign, content, currency`.execute(db);

  if (engine === 'postgres') await postgresTriggers(db);
  else await sqliteTriggers(db);
};

export default migration;
