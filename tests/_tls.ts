// Makes a throwaway CA and a leaf certificate for 127.0.0.1 signed by it, with openssl.
// Deno refuses a self-signed leaf used as its own CA, so tests need a real CA. The keys are
// P-256: generated at once, where an RSA key costs openssl a fraction of a second of CPU.
import { startServer, type TestServer } from "../lib/testing/mod.ts";

export interface TestCertificates {
  /** PEM of the CA certificate (what `caBundle` points to). */
  caPath: string;
  /** PEM of the leaf certificate the server presents. */
  cert: string;
  /** PEM of the leaf's private key. */
  key: string;
}

async function openssl(cwd: string, ...args: string[]): Promise<void> {
  const { code, stderr } = await new Deno.Command("openssl", { args, cwd, stderr: "piped" })
    .output();
  if (code !== 0) throw new Error(`openssl ${args[0]} failed: ${new TextDecoder().decode(stderr)}`);
}

export async function makeCertificates(dir: string): Promise<TestCertificates> {
  await openssl(
    dir,
    ..."req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 2 -subj /CN=repo-apy-test-ca -keyout ca.key -out ca.pem"
      .split(" "),
  );
  await Deno.writeTextFile(
    `${dir}/leaf.ext`,
    "subjectAltName=IP:127.0.0.1,DNS:localhost\nbasicConstraints=CA:FALSE\nkeyUsage=digitalSignature,keyEncipherment\nextendedKeyUsage=serverAuth\n",
  );
  await openssl(
    dir,
    ..."req -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -subj /CN=127.0.0.1 -keyout leaf.key -out leaf.csr"
      .split(" "),
  );
  await openssl(
    dir,
    ..."x509 -req -in leaf.csr -CA ca.pem -CAkey ca.key -CAcreateserial -days 2 -out leaf.pem -extfile leaf.ext"
      .split(" "),
  );
  return {
    caPath: `${dir}/ca.pem`,
    cert: await Deno.readTextFile(`${dir}/leaf.pem`),
    key: await Deno.readTextFile(`${dir}/leaf.key`),
  };
}

/** What {@link withTlsServer} hands its body. */
export interface TlsServerSetup {
  /** The temporary directory holding the certificates; removed afterwards. */
  dir: string;
  certs: TestCertificates;
  /** A local server speaking HTTPS with the leaf certificate. */
  server: TestServer;
}

/**
 * Runs `body` against a local HTTPS server whose certificate is signed by a throwaway CA, then
 * stops the server and removes the temporary directory.
 */
export async function withTlsServer(body: (setup: TlsServerSetup) => Promise<void>): Promise<void> {
  const dir = await Deno.makeTempDir();
  try {
    const certs = await makeCertificates(dir);
    await using server = await startServer({ tls: { cert: certs.cert, key: certs.key } });
    await body({ dir, certs, server });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}
