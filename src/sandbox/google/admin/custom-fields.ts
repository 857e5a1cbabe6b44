/**
 * Field rules shared by custom dimensions and custom metrics (analyticsadmin v1beta CustomDimension,
 * CustomMetric): parameter names and display names as the discovery document describes them.
 */
import { invalidArgument } from "../http.js";
import { checkMaxLength, optionalString, requireNonEmpty } from "./validate.js";

/** "May only contain alphanumeric and underscore characters, starting with a letter" (discovery doc). */
const PARAMETER_NAME = /^[A-Za-z][A-Za-z0-9_]*$/;
/** "Alphanumeric plus space and underscore starting with a letter", at most 82 characters. */
const DISPLAY_NAME = /^[A-Za-z][A-Za-z0-9_ ]*$/;

export function checkNames(json: Record<string, unknown>, at: string, maxParameter: number) {
  const parameterName = requireNonEmpty(
    optionalString(json, "parameterName", at),
    "parameterName",
    "the event parameter (or user property) name, e.g. payment_type.",
  );
  if (!PARAMETER_NAME.test(parameterName) || parameterName.length > maxParameter) {
    throw invalidArgument(
      `parameterName "${parameterName}" is invalid: start with a letter, then letters, digits and underscores, at most ${maxParameter} characters.`,
    );
  }
  return { parameterName, ...checkEditable(json, at, true) };
}

export function checkEditable(json: Record<string, unknown>, at: string, required: boolean) {
  const displayName = optionalString(json, "displayName", at);
  if (required || displayName !== undefined) {
    requireNonEmpty(displayName, "displayName", "the name shown in the Analytics UI.");
    checkMaxLength(displayName ?? "", 82, "displayName");
    if (!DISPLAY_NAME.test(displayName ?? "")) {
      throw invalidArgument(
        `displayName "${displayName}" is invalid: start with a letter, then letters, digits, spaces and underscores.`,
      );
    }
  }
  const description = optionalString(json, "description", at);
  if (description !== undefined) checkMaxLength(description, 150, "description");
  return { displayName: displayName ?? "", ...(description ? { description } : {}) };
}
