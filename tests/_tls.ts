// Makes a throwaway CA and a leaf certificate for 127.0.0.1 signed by it, with openssl.
// Deno refuses a self-signed leaf used as its own CA, so tests need a real CA.

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
    ..."req -x509 -newkey rsa:2048 -nodes -days 2 -subj /CN=repo-apy-test-ca -keyout ca.key -out ca.pem"
      .split(" "),
  );
  await Deno.writeTextFile(
    `${dir}/leaf.ext`,
    "subjectAltName=IP:127.0.0.1,DNS:localhost\nbasicConstraints=CA:FALSE\nkeyUsage=digitalSignature,keyEncipherment\nextendedKeyUsage=serverAuth\n",
  );
  await openssl(
    dir,
    ..."req -newkey rsa:2048 -nodes -subj /CN=127.0.0.1 -keyout leaf.key -out leaf.csr".split(" "),
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
