import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { runWorkUnit } from '../../simulate/run-work-unit.ts';
import { planWorkUnits } from '../../simulate/work-units.ts';
import type { Predictor } from '../../model/surrogate/held-out.ts';
import {
  FIXTURE_COUNTY_ROWS,
  FIXTURE_FACTORS,
  FIXTURE_GRID_FACTORS,
  FIXTURE_RATES,
} from '../support/rem-lake-fixture.ts';

/**
 * A stand-in for the ONNX surrogate whose output is plain IEEE arithmetic (the same on every machine): each
 * fuel's kWh is a fixed mix of the row's features, some weights negative so that clipping at zero is used.
 * With it a cluster's whole result (homes drawn, upgrades, features, statistics, health bins, Arrow bytes)
 * is a pure function of the code, and the hashes below pin it: a change meant to make the stage faster
 * must leave every value as it was.
 */
const linearPredictor: Predictor = {
  predict(features, rows) {
    const width = features.length / rows;
    const out = new Float32Array(rows * 4);
    for (let r = 0; r < rows; r++) {
      for (let f = 0; f < 4; f++) {
        let kwh = 0;
        for (let k = 0; k < width; k++)
          kwh += features[r * width + k]! * ((((k * 7 + f * 13) % 17) - 5) / 64);
        out[r * 4 + f] = kwh;
      }
    }
    return Promise.resolve(out);
  },
};

const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex').slice(0, 16);

const units = planWorkUnits(FIXTURE_COUNTY_ROWS, FIXTURE_RATES, FIXTURE_FACTORS, FIXTURE_GRID_FACTORS, {
  samples: 400,
  model: { version: 'linear-test-model', sha256: 'none' },
  code: 'd'.repeat(64),
});

describe('runWorkUnit', () => {
  // Per cluster: rows through the surrogate, homes excluded from weatherization and from the heat pump water
  // heater (every other upgrade applies to all 400), and the first 16 hex digits of the SHA-256 of the
  // statistics batch (base64 Arrow) and of the health bins as JSON (null when the water-heater fuel is given).
  it.each([
    ['44007|natural_gas|-', 3193, 6, 1, 'b057728c165f2180', 'f16bf3a6c79ba88e'],
    ['44007|fuel_oil|electricity', 3172, 22, 6, '5d3ecb20368cedc2', null],
    ['48303|electricity|-', 3164, 31, 5, '9b5be63b29da1776', '49a2f1087607d2f7'],
  ])(
    'gives cluster %s the same homes, statistics and health bins as ever',
    async (id, evaluations, notWeatherized, noHeatPumpWaterHeater, statistics, healthBins) => {
      const unit = units.find((u) => u.cluster_id === id)!;
      const result = await runWorkUnit(unit, linearPredictor);
      expect(result.supported).toBe(true);
      expect(result.evaluations).toBe(evaluations);
      expect(result.excluded).toEqual({
        baseline: 0,
        weatherization__insulation_air_duct_sealing: notWeatherized,
        hvac__heat_pump_seer15_hspf9: 0,
        hvac__heat_pump_seer18_hspf10: 0,
        hvac__heat_pump_seer24_hspf13: 0,
        'water_heater__heat_pump_uef3.35': noHeatPumpWaterHeater,
        combination__hvac_seer18_hspf10__weatherization: 0,
        combination__all_electric__hvac_seer24_hspf13__weatherization: 0,
      });
      expect(sha256(result.statistics!)).toBe(statistics);
      expect(result.health_bins === null ? null : sha256(JSON.stringify(result.health_bins))).toBe(
        healthBins,
      );
    },
  );
});
