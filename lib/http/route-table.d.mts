/** A method a route file may export (Next's route handler methods). */
export type RouteMethod = 'GET' | 'HEAD' | 'OPTIONS' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface Route {
  /** `/v1/jobs/{id}`: the route file's path, `[id]` written `{id}`. */
  readonly template: string;
  /** The methods the route file exports. */
  readonly methods: readonly RouteMethod[];
}

export const UNMATCHED_ROUTE: 'unmatched';
export const ROUTES: readonly Route[];
export function matchRoute(pathname: string): Route | undefined;
/** A template of ROUTES, or UNMATCHED_ROUTE. */
export function routeLabel(url: string): string;
export function allowedMethods(route: Route): string[];
