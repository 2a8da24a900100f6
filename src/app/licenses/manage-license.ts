import { NotFoundError } from '../../domain/errors.ts';
import { viewLicense, type License, type LicenseView } from '../../domain/license.ts';
import type { Deps } from '../../ports/deps.ts';

/** Who asks for a license: its developer, or (with an identity token) its customer. */
export type LicenseViewer = { developerId: string } | { customerId: string };

async function ownedLicense(deps: Pick<Deps, 'licenses'>, viewer: LicenseViewer, id: string): Promise<License> {
  const license = await deps.licenses.findById(id);
  const owns =
    license && ('developerId' in viewer ? license.developerId === viewer.developerId : license.customerId === viewer.customerId);
  if (!license || !owns) throw new NotFoundError('license');
  return license;
}

/** The license; its key too for its developer (a secret key), who may need to give it to the buyer again. */
export async function getLicense(deps: Pick<Deps, 'clock' | 'licenses'>, viewer: LicenseViewer, id: string): Promise<LicenseView & { licenseKey?: string }> {
  const license = await ownedLicense(deps, viewer, id);
  return { ...viewLicense(license, deps.clock.now()), ...('developerId' in viewer && { licenseKey: license.licenseKey }) };
}

/** The next validation binds to whatever fingerprint it brings. */
export async function unbindLicense(deps: Pick<Deps, 'clock' | 'licenses'>, developerId: string, id: string): Promise<LicenseView> {
  const license = await ownedLicense(deps, { developerId }, id);
  await deps.licenses.unbind(id);
  return viewLicense({ ...license, machineFingerprint: null }, deps.clock.now());
}

/** Revocation is final: validation answers `revoked` from now on. Revoking twice is harmless. */
export async function revokeLicense(deps: Pick<Deps, 'clock' | 'licenses'>, developerId: string, id: string): Promise<LicenseView> {
  const license = await ownedLicense(deps, { developerId }, id);
  await deps.licenses.update(id, { storedStatus: 'revoked' });
  return viewLicense({ ...license, storedStatus: 'revoked' }, deps.clock.now());
}
