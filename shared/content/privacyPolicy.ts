/**
 * The privacy policy (/privacy-policy). It describes what this site really does: no accounts,
 * forms, cookies or third-party code, a short-lived access log without IP addresses or user
 * agents, and (while CLICK_STATS is on) the page views of server/views, the clicks and click IDs of
 * server/clicks and the conversions of server/conversions. If the server's logging, what those
 * records hold, how long they are kept or the page assets change, this text must change too.
 */
import { paths } from '../routes';
import { policiesLastUpdated } from './policiesLastUpdated';
import type { ProsePage } from './types';

export const privacyPolicy: ProsePage = {
  path: paths.privacyPolicy,
  title: 'Privacy Policy | Auctions Guide',
  description:
    'How Auctions Guide handles your privacy: no accounts, forms, cookies or third-party trackers, and no IP addresses kept, in our access log or anywhere else.',
  heading: 'Privacy Policy',
  lastUpdated: policiesLastUpdated,
  intro: [
    {
      kind: 'paragraph',
      text: 'This policy explains what information Auctions Guide collects when you visit this website, why we collect it and how long we keep it. The short version: we collect very little, and nothing that tells us who you are.',
    },
  ],
  sections: [
    {
      id: 'who-we-are',
      heading: 'Who We Are',
      blocks: [
        {
          kind: 'paragraph',
          text: 'Auctions Guide is an independent review and information site about an online membership for buying vehicles at public auctions. In this policy, “we” and “us” mean the operator of this site. We are not the company that sells the membership.',
        },
      ],
    },
    {
      id: 'what-we-do-not-collect',
      heading: 'What We Do Not Collect',
      blocks: [
        { kind: 'paragraph', text: 'This site is built to work without collecting personal information. It has:' },
        {
          kind: 'list',
          items: [
            'No user accounts and no logins.',
            'No forms, so you never type your name, email address or payment details here.',
            'No cookies, and nothing stored in your browser’s local storage.',
            'No analytics services, tracking pixels, advertising or social media widgets from other companies.',
            'No third-party scripts or fonts. Every image, font, style sheet and script comes from this site itself.',
          ],
        },
        {
          kind: 'paragraph',
          text: 'Because every file is served from this site only, loading our pages does not make your browser contact any other company.',
        },
      ],
    },
    {
      id: 'access-logs',
      heading: 'Server Access Logs',
      blocks: [
        {
          kind: 'paragraph',
          text: 'Like most websites, our server writes one short line to its access log for each request it answers. Each line holds only:',
        },
        {
          kind: 'list',
          items: [
            'The date and time of the request.',
            'The request method, such as GET.',
            'The page or file path that was asked for, without any query string (the part of an address after a “?”).',
            'The status code of the response, such as 200 or 404.',
            'The size of the response.',
            'How long the server took to answer.',
          ],
        },
        {
          kind: 'paragraph',
          text: 'We do not log your IP address or your browser’s user agent (the text that names your browser and device). Your device’s IP address has to reach our server so it can send the page back to you, but we do not write it down.',
        },
        {
          kind: 'paragraph',
          text: 'We use these logs only to keep the site secure and to find and fix problems, such as broken links or slow pages. We keep them for at most 14 days and then delete them. We do not sell them, share them for marketing or combine them with other data.',
        },
        {
          kind: 'paragraph',
          text: 'If the site is delivered through a hosting or network provider, that provider may handle connection data, such as IP addresses, to carry traffic and protect against attacks, under its own terms.',
        },
      ],
    },
    {
      id: 'page-views',
      heading: 'Counting Page Views',
      when: 'clickCounting',
      blocks: [
        {
          kind: 'paragraph',
          text: 'To learn which of our pages people read and how they find this site, your browser tells our server each time you open one of our pages, and we record:',
        },
        {
          kind: 'list',
          items: [
            'The date and time, and which of our pages it was.',
            'The name of the website you came to us from, if your browser shares it (for example, www.google.com), but never the full address of the page.',
            'The campaign tags utm_source, utm_medium, utm_campaign and utm_content, if the address you arrived at carried them (for example, a link in a newsletter may say utm_source=newsletter).',
            'Whether you are on a phone, a tablet or a computer. We work this out from your browser’s user agent and then discard the user agent.',
            'A visitor code that lets us count how many different people visited on a given day. It is calculated from your IP address and user agent together with a random secret value that is new every day at midnight (UTC) and is deleted from our database two days later. Nobody, including us, can turn the code back into your IP address, or use it to recognise you on another day; once the secret is deleted, not even the code can be calculated again.',
          ],
        },
        {
          kind: 'paragraph',
          text: 'We do not set a cookie or store anything in your browser to do this. Page views by search engine crawlers and other automated programs, and pages a browser only loads in advance, are not counted.',
        },
        {
          kind: 'paragraph',
          text: 'When you leave one of our pages, switch away from it or go on to another of our pages, your browser sends one more short report about that page view, so we can tell a button people do not click from a button they never reached: which sections of the page came into view, which of our registration buttons and links were on screen (at least half of one, for at least a second) and which of them you followed, and for how many seconds the page was in front of you while you were reading or scrolling (at most 30 minutes). It is sent with the same visitor code, worked out the same way, holds nothing else about you, and is kept for as long as the page-view record.',
        },
        {
          kind: 'paragraph',
          text: 'We keep each page-view record for {clickRetentionDays} days. After that we keep only the daily number of page views and of different visitors for each page, type of device, referring website and website or campaign that sent them, and delete the individual records.',
        },
      ],
    },
    {
      id: 'click-counting',
      heading: 'Counting Clicks on Our Registration Buttons',
      when: 'clickCounting',
      blocks: [
        {
          kind: 'paragraph',
          text: 'We want to know which of our buttons people find useful and which lead to registrations, and to notice quickly if the registration link stops working. So when you click one of our buttons that lead to the membership’s registration page, your browser tells our server which button it was, and we record:',
        },
        {
          kind: 'list',
          items: [
            'The date and time of the click.',
            'Which button it was (for example, the one at the top of the page) and which of our pages it was on.',
            'The name of the website you came to us from, if your browser shares it (for example, www.google.com), but never the full address of the page.',
            'Whether you are on a phone, a tablet or a computer.',
            'The same daily visitor code as for page views, so we can count how many different people clicked.',
            'What brought you to this site: the utm_source tag of the address you arrived at, or else the website you came from, and its utm_campaign and utm_content tags if it carried them. Your browser keeps it only in the page’s memory while you move between our pages, never in a cookie or storage, and sends it with the click.',
            'A click ID, when our link carries one: a random code, made new for each click, that your browser puts into the link’s sub-ID (a tracking field of the affiliate network) at the moment you click. It goes to the affiliate network with the link, and the network sends it back to us if the visit leads to a registration, so we can tell which click earned a commission. It identifies the click, not you.',
          ],
        },
        {
          kind: 'paragraph',
          text: 'We do not store your IP address or your user agent, and we do not set a cookie. The button’s link goes straight to the membership’s website: your click is never redirected through our server.',
        },
        {
          kind: 'paragraph',
          text: 'Clicks from search engine crawlers and other automated programs, and links that a browser only loads in advance, are not counted.',
        },
        {
          kind: 'paragraph',
          text: 'For the page-view and click reports we do not count (from automated programs, loaded in advance, sent with Global Privacy Control or Do Not Track, sent too fast, sent from another website’s page, or unreadable), we keep only a daily tally: the date, whether it was a page-view or a click report, which of those reasons applied, and how many there were. Nothing about who sent them is kept: no IP address, no user agent, no visitor code.',
        },
        {
          kind: 'paragraph',
          text: 'We keep each click record for {clickRetentionDays} days. After that we keep only the daily number of clicks and of different visitors for each button, page, type of device, referring website and website or campaign that sent them, which cannot be linked to anyone, and delete the individual records.',
        },
        {
          kind: 'paragraph',
          text: 'How to turn it off: if your browser sends the Global Privacy Control signal or a “Do Not Track” request, we do not record your page views or clicks at all, and our links carry no click ID. You can also block JavaScript: then no page view is reported and no click ID is made. If you also block the browser’s link-auditing “ping” feature (Firefox blocks it by default), your clicks are not counted either. The buttons work either way. The people who run this site can switch counting off entirely; when they do, these sections disappear from this policy.',
        },
      ],
    },
    {
      id: 'different-wording',
      heading: 'Testing Different Wording',
      when: 'experiments',
      blocks: [
        {
          kind: 'paragraph',
          text: 'We are testing which wording on our home page helps readers most, so you may see different words on some of its headings and buttons than another visitor does. Which wording you see is worked out on our server from the same daily visitor code we use to count visitors, so it stays the same for the day and may change the next day. Nothing is stored in your browser to do this: no cookie, no local storage.',
        },
        {
          kind: 'paragraph',
          text: 'The page views and clicks we record, and the sales the affiliate network reports, also note which wording the page showed, so we can compare them. If your browser sends the Global Privacy Control signal or a “Do Not Track” request, you always see our usual wording and take no part in the test.',
        },
      ],
    },
    {
      id: 'reported-sales',
      heading: 'Sales the Affiliate Network Reports to Us',
      when: 'clickCounting',
      blocks: [
        {
          kind: 'paragraph',
          text: 'When someone registers for the membership through our link, the affiliate network pays us a commission and can report the sale back to us. When the operator records the network’s reports, we keep what the network sends:',
        },
        {
          kind: 'list',
          items: [
            'The network’s transaction ID for the sale.',
            'The sub-ID our link carried, with its click ID if it had one.',
            'The commission and its currency.',
            'Whether it is a sale, or a refund or chargeback that cancels one.',
            'The date and time the report arrived.',
          ],
        },
        {
          kind: 'paragraph',
          text: 'No name, email address or payment details reach this site: the network does not send them to us. We match the report to the click its click ID names, so that we see which button, page and source led to the sale; that click record holds only what the section above describes.',
        },
        {
          kind: 'paragraph',
          text: 'We keep each sale record for 180 days or {clickRetentionDays} days, whichever is longer, so that a late refund can still find its sale. After that we keep only the daily number of sales and their commission for each button and source, and delete the individual records.',
        },
      ],
    },
    {
      id: 'registration-link',
      heading: 'When You Follow Our Registration Link',
      blocks: [
        {
          kind: 'paragraph',
          text: 'Our buttons for the membership open another company’s website in a new tab. Once you are there, you are no longer on our site. That company’s own privacy policy and terms apply to anything you do there, including registering and paying. Please read them before you sign up.',
        },
        {
          kind: 'paragraph',
          text: 'Our link is an affiliate link. The affiliate network behind it may set its own cookies on that site, so that a registration can be credited to us and we can be paid a commission. Those cookies are set by that network, not by us, and its own policy covers them.',
        },
        {
          kind: 'paragraph',
          text: 'We never see your payment details. The affiliate network may tell us that a registration was made through our link so that it can pay our commission.',
        },
      ],
    },
    {
      id: 'sharing',
      heading: 'Sharing Information',
      blocks: [
        {
          kind: 'paragraph',
          when: 'clickCounting',
          text: 'We do not sell or rent information about our visitors. The click ID described above goes to the affiliate network inside our registration link when you follow it; it is a random code that tells the network nothing about you. We would only share our access logs or our records of page views, clicks and sales if the law required us to, for example to answer a valid court order, or to deal with an attack on the site.',
        },
        {
          kind: 'paragraph',
          when: 'noClickCounting',
          text: 'We do not sell or rent information about our visitors. We would only share our access logs if the law required us to, for example to answer a valid court order, or to deal with an attack on the site.',
        },
      ],
    },
    {
      id: 'children',
      heading: 'Children',
      blocks: [
        {
          kind: 'paragraph',
          text: 'This site is meant for adults who are thinking about buying a vehicle. It is not aimed at children under 13, and it does not knowingly collect personal information from anyone, of any age.',
        },
      ],
    },
    {
      id: 'your-rights',
      heading: 'Your Rights',
      blocks: [
        {
          kind: 'paragraph',
          text: 'Depending on where you live, you may have the right to ask what information we hold about you, to ask us to correct or delete it, or to object to how we use it. You can email us at {contactEmail} to use these rights at any time.',
        },
        {
          kind: 'paragraph',
          when: 'clickCounting',
          text: 'Because our logs and our records of page views, clicks and sales hold no IP addresses, names or other identifiers, we usually cannot tell which of them, if any, came from you. We will still answer your request and explain what we can do.',
        },
        {
          kind: 'paragraph',
          when: 'noClickCounting',
          text: 'Because our logs hold no IP addresses, names or other identifiers, we usually cannot tell which lines, if any, came from you. We will still answer your request and explain what we can do.',
        },
      ],
    },
    {
      id: 'changes',
      heading: 'Changes to This Policy',
      blocks: [
        {
          kind: 'paragraph',
          text: 'If we change how the site handles information, we will update this page and the “last updated” date at the top. We will not start collecting more information without first saying so here.',
        },
      ],
    },
    {
      id: 'contact',
      heading: 'Contact',
      blocks: [
        {
          kind: 'paragraph',
          text: 'For questions about this policy or your privacy, please email the site operator at {contactEmail}.',
        },
      ],
    },
  ],
};
