// The web USSD simulator: a phone in the browser over the real USSD core.

export {
  renderSimulatorPage,
  type SimulatorPageOptions,
  type SimulatorTestNumber,
} from './simulator-page.js';
export {
  registerSimulatorRoutes,
  type SimulatorOptions,
  SimulatorSms,
  SimulatorUssdBody,
} from './simulator-routes.js';
