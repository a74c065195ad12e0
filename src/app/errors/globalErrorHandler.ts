export function installGlobalErrorHandler(): void {}
