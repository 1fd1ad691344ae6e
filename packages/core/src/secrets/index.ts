export { openSecret, redactSecrets, sealedKeyId, sealSecret, SecretBoxError, secretKeyId } from './secret-box';
