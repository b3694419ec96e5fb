/**
 * npm run costs:set: a fixed cost for a source without a report (a newsletter sponsorship, a flat-fee
 * placement), as a daily amount over a span of UTC days or an amount per visitor of the source. Writes to
 * PostgreSQL when DATABASE_URL is set, otherwise to the SQLite file CLICKS_DB (default data/clicks.sqlite)
 * or the file --db names; safe while the server runs.
 *
 *   npm run costs:set -- --source newsletter --from 2026-01-01 --to 2026-01-31 --daily 12.50 --currency USD
 *   npm run costs:set -- --source partner-blog --from 2026-01-01 --to 2026-12-31 --per-visitor 0.35 --currency EUR
 *   npm run costs:set -- --list
 *   npm run costs:set -- --remove 3
 */
import '../server/nodeVersion';
import { parseArgs } from 'node:util';
import { formatCostMicros, parseCostMicros, parseCostName, parseCurrency } from '../server/costs/costInput';
import { createCostStore, FixedCostOverlapError, type FixedCost } from '../server/costs/costStore';
import { firstReportDay, lastReportDay } from '../server/dayCounts/reportRange';
import { isDay } from '../server/lib/utcDay';
import { printable } from '../server/lib/errorText';
import { runCommand, type CommandMain } from './runCommand';
import { commandDatabaseSettings, openCommandDatabase } from './commandDatabase';

const usage = `Usage: npm run costs:set -- --source NAME [--campaign NAME] --from YYYY-MM-DD --to YYYY-MM-DD
         (--daily AMOUNT | --per-visitor AMOUNT) --currency CODE [--db FILE]
       npm run costs:set -- --list [--db FILE]
       npm run costs:set -- --remove ID [--db FILE]
A daily amount counts on every UTC day from --from to --to; an amount per visitor is multiplied by each day's visitors of the source.`;

/** An amount per visitor above this is surely a typo for a daily amount, and keeps a busy day's product exact. */
const maxPerVisitorUnits = 1000;

const printableLines = (write: (text: string) => void) => (text: string) => write(text.split('\n').map(printable).join('\n'));

export function fixedCostLine(rule: FixedCost): string {
  const amount = rule.dailyMicros !== null ? `${formatCostMicros(rule.dailyMicros)} ${rule.currency} a day` : `${formatCostMicros(rule.perVisitorMicros ?? 0)} ${rule.currency} per visitor`;
  return `${rule.id}: ${rule.source}${rule.campaign ? ` / ${rule.campaign}` : ''}, ${rule.from} to ${rule.to}, ${amount}`;
}

/** What --help says beside the usage: the codes main returns. */
const exitCodeHelp = 'Exit codes: 0 done, 1 refused by what the database holds (an overlapping rule, no such ID) or no usable database, 64 bad arguments.';

export const main: CommandMain = async (argv, env, writeOut, writeErr) => {
  const out = printableLines(writeOut);
  const err = printableLines(writeErr);
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      options: {
        source: { type: 'string' },
        campaign: { type: 'string' },
        from: { type: 'string' },
        to: { type: 'string' },
        daily: { type: 'string' },
        'per-visitor': { type: 'string' },
        currency: { type: 'string' },
        list: { type: 'boolean' },
        remove: { type: 'string' },
        db: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
    });
  } catch (error) {
    err(`costs:set: ${(error as Error).message}\n${usage}\n`);
    return 64;
  }
  const { values } = parsed;
  if (values.help) {
    out(`${usage}\n${exitCodeHelp}\n`);
    return 0;
  }
  const bad = (message: string) => {
    err(`costs:set: ${message}\n${usage}\n`);
    return 64;
  };
  const ruleOptions = ['source', 'campaign', 'from', 'to', 'daily', 'per-visitor', 'currency'] as const;
  const givenRuleOptions = ruleOptions.filter((name) => values[name] !== undefined);
  const modes = [values.list === true, values.remove !== undefined, givenRuleOptions.length > 0].filter(Boolean).length;
  if (modes !== 1) return bad('give a rule (--source, --from, --to, an amount and --currency), or --list, or --remove ID');

  let removeId: number | undefined;
  if (values.remove !== undefined) {
    if (!/^[1-9]\d{0,14}$/.test(values.remove)) return bad('--remove takes a rule ID, a whole number as --list shows it');
    removeId = Number(values.remove);
  }
  let rule;
  if (givenRuleOptions.length > 0) {
    const source = parseCostName(values.source);
    if (source === undefined || source === '') return bad('--source must be a source name of 1 to 100 characters, as utm_source carries it');
    const campaign = values.campaign === undefined ? '' : parseCostName(values.campaign);
    if (campaign === undefined) return bad('--campaign must be at most 100 characters, without control characters');
    for (const name of ['from', 'to'] as const) {
      const day = values[name];
      if (day === undefined) return bad(`--${name} is required: a UTC day, YYYY-MM-DD`);
      if (!isDay(day) || day < firstReportDay || day > lastReportDay) return bad(`--${name} must be a real UTC day from ${firstReportDay} to ${lastReportDay}, written YYYY-MM-DD`);
    }
    if (values.to! < values.from!) return bad('--to must not be before --from');
    if ((values.daily === undefined) === (values['per-visitor'] === undefined)) return bad('give one amount: --daily or --per-visitor');
    if (values['per-visitor'] !== undefined && campaign !== '') return bad('--per-visitor counts the visitors of the whole source, so it takes no --campaign');
    const dailyMicros = values.daily === undefined ? null : parseCostMicros(values.daily);
    if (dailyMicros === undefined) return bad('--daily must be a decimal amount, at least 0, with at most 6 decimals, such as 12.50');
    const perVisitorMicros = values['per-visitor'] === undefined ? null : parseCostMicros(values['per-visitor'], maxPerVisitorUnits);
    if (perVisitorMicros === undefined) return bad(`--per-visitor must be a decimal amount from 0 to ${maxPerVisitorUnits}, with at most 6 decimals, such as 0.35`);
    if (values.currency === undefined) return bad('--currency is required (amounts are never converted): three letters, such as USD');
    const currency = parseCurrency(values.currency);
    if (currency === undefined) return bad('--currency must be three letters, such as USD');
    rule = { source, campaign, from: values.from!, to: values.to!, dailyMicros, perVisitorMicros, currency };
  }

  const settings = commandDatabaseSettings('costs:set', values.db, env, err);
  const database = settings && (await openCommandDatabase('costs:set', settings, err));
  if (!database) return 1;
  try {
    const store = createCostStore(database.db);
    if (values.list) {
      const rules = await store.listFixedCosts();
      if (rules.length === 0) out('no fixed costs set\n');
      for (const listed of rules) out(`${fixedCostLine(listed)}\n`);
      return 0;
    }
    if (removeId !== undefined) {
      if (!(await store.removeFixedCost(removeId))) {
        err(`costs:set: there is no rule ${removeId}; --list shows them\n`);
        return 1;
      }
      out(`removed rule ${removeId}\n`);
      return 0;
    }
    try {
      out(`set ${fixedCostLine(await store.setFixedCost(rule!))}\n`);
      return 0;
    } catch (error) {
      if (!(error instanceof FixedCostOverlapError)) throw error;
      err(`costs:set: ${error.message}\n`);
      return 1;
    }
  } finally {
    await database.close().catch(() => {});
  }
};

if (require.main === module) runCommand(main, 'costs:set');
