/*
 * The messages the Graph API's `/messages` takes for a conversation (text, reply buttons, lists,
 * a URL button, a document) and the limits Meta publishes on what one may carry: the wire shapes
 * the renderer fills and the client sends.
 */

/** WhatsApp's published limits on what one message may carry. */
export const WHATSAPP_LIMITS = {
  textBody: 4096,
  interactiveBody: 1024,
  buttons: 3,
  buttonTitle: 20,
  listRows: 10,
  rowTitle: 24,
  rowDescription: 72,
  listButton: 20,
  ctaDisplayText: 20,
  caption: 1024,
} as const;

/**
 * Meta's customer service window: free-form messages reach a customer only within 24 hours of
 * their last message; outside it only an approved template does.
 */
export const SERVICE_WINDOW_SECONDS = 24 * 3_600;

/** One reply button or list row: the id comes back in the customer's reply. */
export interface Row {
  readonly id: string;
  readonly title: string;
  readonly description?: string;
}

/** One outgoing message, as the Graph API's `/messages` takes it (without `to`). */
export type WhatsAppMessage =
  | { readonly type: 'text'; readonly text: { readonly body: string } }
  | {
      readonly type: 'interactive';
      readonly interactive:
        | {
            readonly type: 'button';
            readonly body: { readonly text: string };
            readonly action: { readonly buttons: readonly { type: 'reply'; reply: Row }[] };
          }
        | {
            readonly type: 'list';
            readonly body: { readonly text: string };
            readonly action: {
              readonly button: string;
              readonly sections: readonly { readonly rows: readonly Row[] }[];
            };
          }
        | {
            readonly type: 'cta_url';
            readonly body: { readonly text: string };
            readonly action: {
              readonly name: 'cta_url';
              readonly parameters: { readonly display_text: string; readonly url: string };
            };
          };
    }
  | {
      readonly type: 'document';
      readonly document: { readonly link: string; readonly filename: string; caption: string };
    };

/** A template message: its approved name, language and the body's named text parameters. */
export interface TemplateMessage {
  readonly type: 'template';
  readonly template: {
    readonly name: string;
    readonly language: { readonly code: string };
    readonly components: readonly {
      readonly type: 'body';
      readonly parameters: readonly {
        readonly type: 'text';
        /** The body's `{{name}}` this fills (a template approved with named parameters). */
        readonly parameter_name: string;
        readonly text: string;
      }[];
    }[];
  };
}
