/** Project settings (to be built). */
import type { PageProps } from '../../routes.js';
import { PageHeader } from '../../ui/page.js';

export default function Page(_props: PageProps) {
  return <PageHeader title="Project settings" description="This page is being built." />;
}
