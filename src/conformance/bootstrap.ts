import { mulberry32 } from '../core/seeded-random.js'

export { mulberry32 }

/**
 * Percentile bootstrap of a failure rate over per-probe outcomes (GMP §8.2 asks safety directions
 * for paired-bootstrap intervals). The probes of one direction are resampled with replacement,
 * with a seeded generator so a report is reproducible.
 */
export function bootstrapInterval(failures: readonly boolean[], seed = 0x9e3779b9, resamples = 1000): [number, number] {
  const n = failures.length
  if (n === 0) return [0, 0]
  const rand = mulberry32(seed)
  const rates: number[] = []
  for (let r = 0; r < resamples; r++) {
    let k = 0
    for (let i = 0; i < n; i++) if (failures[Math.floor(rand() * n)]) k++
    rates.push(k / n)
  }
  rates.sort((a, b) => a - b)
  return [rates[Math.floor(0.025 * (resamples - 1))]!, rates[Math.ceil(0.975 * (resamples - 1))]!]
}

