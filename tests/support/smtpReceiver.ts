import type { AddressInfo } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export interface SmtpReceiver {
  /** smtp://[user:password@]127.0.0.1:PORT */
  url: string;
  /** Every message accepted, parsed. */
  messages: ParsedMail[];
  /** The envelope's recipients of each message, in order. */
  recipients: string[][];
  close(): Promise<void>;
}

/**
 * A real SMTP server on loopback (the smtp-server package), plain SMTP without STARTTLS; with `login`,
 * it refuses mail until the client signs in with that user and password.
 */
export async function startSmtpReceiver(login?: { user: string; password: string }): Promise<SmtpReceiver> {
  const messages: ParsedMail[] = [];
  const recipients: string[][] = [];
  const server = new SMTPServer({
    secure: false,
    disabledCommands: login ? ['STARTTLS'] : ['STARTTLS', 'AUTH'],
    authOptional: !login,
    allowInsecureAuth: true,
    logger: false,
    onAuth(auth, _session, callback) {
      if (login && auth.username === login.user && auth.password === login.password) callback(null, { user: auth.username });
      else callback(new Error('Invalid username or password'));
    },
    onData(stream, session, callback) {
      simpleParser(stream)
        .then((mail) => {
          messages.push(mail);
          recipients.push(session.envelope.rcptTo.map((to) => to.address));
          callback();
        })
        .catch((error: Error) => callback(error));
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  const credentials = login ? `${encodeURIComponent(login.user)}:${encodeURIComponent(login.password)}@` : '';
  return {
    url: `smtp://${credentials}127.0.0.1:${port}`,
    messages,
    recipients,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
