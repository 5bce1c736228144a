// /people – registered people: rename, edit the relationship, add photos, delete
import type { Metadata } from 'next';
import { PeopleList } from './people-list';

export const metadata: Metadata = { title: 'People' };

export default function PeoplePage() {
  return <PeopleList />;
}
