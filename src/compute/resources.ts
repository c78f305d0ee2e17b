// Compute resources a job can ask for, with their price (docs/jobs.md, "Resources and prices").
export interface Resource {
  name: string;
  vcpu: number;
  /** Price in micro-dollars per second of runtime. */
  rateMicrosPerSec: number;
}

export const RESOURCES: Readonly<Record<string, Resource>> & { readonly default: Resource } = {
  default: { name: 'default', vcpu: 1, rateMicrosPerSec: 200 }, // $0.0002/s
  'cpu-4': { name: 'cpu-4', vcpu: 4, rateMicrosPerSec: 800 }, // $0.0008/s
};

export const RESOURCE_NAMES = Object.keys(RESOURCES);
