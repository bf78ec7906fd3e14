/** The backend-neutral layer: the error hierarchy, unsigned and checked arithmetic, and the planners. */
module dev.vyre.driver {
  exports dev.vyre.driver;
  exports dev.vyre.driver.error;
  exports dev.vyre.driver.planner;
}
