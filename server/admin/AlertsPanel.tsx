import { formatMoment } from '../lib/utcDay';
import type { AlertsOverview, IncidentWithDeliveries } from '../alerts/alertsOverview';
import { incidentTitle } from '../alerts/alertMessage';
import type { ChannelName } from '../delivery/deliveryChannel';
import type { Delivery } from '../delivery/outbox';

const channelNames: Record<ChannelName, string> = { webhook: 'webhook', email: 'e-mail' };
const channelName = (channel: string) => channelNames[channel as ChannelName] ?? channel;

const capitalized = (text: string) => text[0]!.toUpperCase() + text.slice(1);

/** The time of day when it is the same day as `day`'s moment, else the whole moment. */
function shortMoment(at: number, sameDayAs: number): string {
  const whole = formatMoment(at);
  return whole.slice(0, 10) === formatMoment(sameDayAs).slice(0, 10) ? whole.slice(11) : whole;
}

function deliveryState(delivery: Delivery): string {
  const { status } = delivery;
  if (status.state === 'sent') return `sent ${shortMoment(status.at, delivery.createdAt)}`;
  if (status.state === 'given-up') return `given up after ${status.attempts} attempts${status.lastError ? ` (${status.lastError})` : ''}`;
  if (status.attempts === 0) return 'waiting to be sent';
  return `retrying: ${status.attempts} ${status.attempts === 1 ? 'attempt' : 'attempts'} failed${status.lastError ? ` (last: ${status.lastError})` : ''}, next at ${shortMoment(status.nextAttemptAt, delivery.createdAt)}`;
}

/** One event's deliveries, per channel: "Alert: webhook sent 20:00 UTC; e-mail retrying …". */
function Deliveries({ incident, event, label }: { incident: IncidentWithDeliveries; event: 'opened' | 'recovered'; label: string }) {
  const rows = incident.deliveries.filter((delivery) => delivery.event === event);
  // The database's alert cannot wait in the database that is down: each instance sends it straight away.
  if (rows.length === 0 && event === 'opened' && incident.rule === 'database') {
    return <p className="muted">{label}: sent by the instance itself when the outage passed 5 minutes (not through the outbox).</p>;
  }
  if (rows.length === 0) return null;
  return (
    <p className="muted">
      {label}: {rows.map((delivery) => `${channelName(delivery.channel)} ${deliveryState(delivery)}`).join('; ')}.
    </p>
  );
}

function ChannelsLine({ channels }: { channels: readonly ChannelName[] }) {
  if (channels.length === 0) {
    return (
      <p className="health">
        Alerts go nowhere yet: the rules below still run and record what they find here. To be told when something breaks and when it
        works again, set <code>ALERT_WEBHOOK_URL</code> (a Slack, Discord or other incoming webhook), or <code>ALERT_EMAIL_TO</code> with{' '}
        <code>SMTP_URL</code>, and restart.
      </p>
    );
  }
  return <p className="muted">Alerts and recoveries go by {channels.map(channelName).join(' and ')}, each once, from whichever instance found it.</p>;
}

/**
 * /admin's Alerts: what is wrong now (the open incidents, with the alert's text), the last 30 days'
 * alerts and recoveries with each channel's delivery, and how to turn alerts on when they are off.
 * The rules themselves are stated in docs/alerts.md.
 */
export function AlertsPanel({ alerts }: { alerts: AlertsOverview }) {
  return (
    <section aria-labelledby="alerts-heading">
      <h2 id="alerts-heading">Alerts</h2>
      <ChannelsLine channels={alerts.channels} />
      {alerts.open.length === 0 ? (
        <p className="muted">Nothing is wrong now: no rule has an open incident.</p>
      ) : (
        alerts.open.map((incident) => (
          <div key={incident.id} className="banner" role="alert">
            <p>
              <strong>{capitalized(incidentTitle(incident.rule, incident.subject))}</strong>, since {formatMoment(incident.openedAt)}.
            </p>
            <p>{incident.summary}</p>
            <Deliveries incident={incident} event="opened" label="Alert" />
          </div>
        ))
      )}
      <h3>The last 30 days</h3>
      {alerts.recent.length === 0 ? (
        <p className="muted">No incident ended in the last 30 days.</p>
      ) : (
        <ul className="incidents">
          {alerts.recent.map((incident) => (
            <li key={incident.id}>
              <p>
                <strong>{capitalized(incidentTitle(incident.rule, incident.subject))}</strong>{' '}
                <span className="muted">
                  {formatMoment(incident.openedAt)} to {shortMoment(incident.closedAt ?? incident.openedAt, incident.openedAt)}
                </span>
              </p>
              <p>{incident.summary}</p>
              <Deliveries incident={incident} event="opened" label="Alert" />
              {incident.recovery && <p>{incident.recovery}</p>}
              <Deliveries incident={incident} event="recovered" label="Recovery" />
            </li>
          ))}
        </ul>
      )}
      {alerts.truncated && <p className="muted">Only the newest {alerts.recent.length} are listed.</p>}
    </section>
  );
}
