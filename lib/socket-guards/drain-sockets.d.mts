import type { Server } from 'node:http';

export interface OpenSockets {
  /** Method and path of each request still being answered. */
  answering: string[];
  between_requests: number;
  before_first_request: number;
}

export function trackSockets(server: Server): {
  /** Destroys every socket with no request being answered; returns how many. */
  closeIdle(): number;
  describe(): OpenSockets;
};
