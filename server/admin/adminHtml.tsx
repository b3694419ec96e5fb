import type { ReactElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { AdminPage, type AdminPageProps } from './AdminPage';

/** What /admin shows beside the report: read by the serving process, handed to wherever the page is rendered. */
export type AdminPageContext = Omit<AdminPageProps, 'report'>;

/** A whole admin document as HTML. */
export const adminHtml = (page: ReactElement): string => `<!DOCTYPE html>${renderToStaticMarkup(page)}`;

/** The admin page of a report, as HTML: rendered where the report was read (see server/reports/reportReader.ts). */
export const adminReportHtml = (props: AdminPageProps): string => adminHtml(<AdminPage {...props} />);
