/** The platforms' actions looked up by platform and action type, as provider files and the enclave name them. */
import { PLATFORMS } from './catalog.js';
import type { PlatformAction, PlatformDefinition } from './definition.js';

/** A platform's actions: its payment first, then its identity registration. */
export function actionsOf(platform: PlatformDefinition): PlatformAction[] {
  return [
    ...(platform.payment ? [{ platform, kind: 'payment' as const, action: platform.payment }] : []),
    ...(platform.identity ? [{ platform, kind: 'identity' as const, action: platform.identity }] : []),
  ];
}

/** Every action of every platform, in catalog order. */
export const PLATFORM_ACTIONS: readonly PlatformAction[] = PLATFORMS.flatMap(actionsOf);

export function platformById(id: string): PlatformDefinition | undefined {
  return PLATFORMS.find((platform) => platform.id === id);
}

export function platformAction(platformId: string, actionType: string): PlatformAction | undefined {
  return PLATFORM_ACTIONS.find((entry) => entry.platform.id === platformId && entry.action.type === actionType);
}
