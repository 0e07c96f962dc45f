/** Wrangler bundles `.sql` files as text modules (its default rules); the chat object reads D1's migrations so. */
declare module "*.sql" {
  const text: string;
  export default text;
}
