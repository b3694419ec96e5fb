import type { ReactElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import type { FunnelReportOptions } from '../funnelReport/funnelReport';
import { AdminPage, type AdminPageProps } from './AdminPage';
import { maxTableDays } from './tableDays';

/** What /admin shows beside the report: read by the serving process, handed to wherever the page is rendered. */
export type AdminPageContext = Omit<AdminPageProps, 'report'>;

/** What the admin page's report reads: each day's sources only for the days its table shows. */
export const adminReportOptions: FunnelReportOptions = { daySourceDays: maxTableDays };

/** A whole admin document as HTML. */
export const adminHtml = (page: ReactElement): string => `<!DOCTYPE html>${renderToStaticMarkup(page)}`;

/** The admin page of a report, as HTML: rendered where the report was read (see server/reports/reportReader.ts). */
export const adminReportHtml = (props: AdminPageProps): string => adminHtml(<AdminPage {...props} />);
