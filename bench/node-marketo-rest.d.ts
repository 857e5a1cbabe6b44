/** The part of node-marketo-rest 0.7.8 (CommonJS, untyped) that the bench drives. */
declare module "node-marketo-rest" {
  interface MarketoOptions {
    endpoint: string;
    identity: string;
    clientId: string;
    clientSecret: string;
  }
  class Marketo {
    constructor(options: MarketoOptions);
    getOAuthToken(): Promise<unknown>;
    lead: {
      find(filterType: string, filterValues: unknown[], options?: object): Promise<{ success: boolean }>;
    };
  }
  export default Marketo;
}
